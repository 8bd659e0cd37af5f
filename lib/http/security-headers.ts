// The security headers of every answer (docs/security.md). A leaf, which next.config.mjs and
// server.mjs load with Node's type stripping: erasable TypeScript only.

/**
 * Security headers of every response. Pages get their Content-Security-Policy, with a nonce per
 * request, from proxy.ts; next.config.mjs sends these with Next's answers, server.mjs with its own
 * refusals. See docs/security.md.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  // Never framed (clickjacking); CSP frame-ancestors says the same to browsers that read it.
  "X-Frame-Options": "DENY",
  // Same-origin requests keep the full referrer; other sites get none (URLs carry contract ids).
  "Referrer-Policy": "same-origin",
  // Powerful features the app never uses, off for it and anything it might embed.
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  // A window opened from another site cannot script ours, and our answers are not embedded elsewhere.
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
};

/**
 * The answers of /v1 and /api (JSON, and the downloads: files, the CSV) are never documents: if a
 * browser is ever made to render one, nothing runs, and `sandbox` gives it an origin of its own.
 * It is the only policy they carry (next.config's headers() come before a handler's of the same name).
 */
export const JSON_ROUTE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox";
/** The front door's own error pages: an inline style, nothing else. */
export const ERROR_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The headers of a refusal the front door writes itself: a JSON answer's or an error page's. */
export function refusalSecurityHeaders(json: boolean): Record<string, string> {
  return { ...SECURITY_HEADERS, "Content-Security-Policy": json ? JSON_ROUTE_CSP : ERROR_PAGE_CSP };
}
