// Content-Security-Policy for the web app's pages, with a fresh nonce per request (Next 16's
// documented way to keep `unsafe-inline` out of script-src: Next reads the nonce from the CSP
// request header while rendering and puts it on its own scripts). Every page of this app is
// rendered per request anyway (they read the session cookie), so the nonce costs nothing more.
//
// The other security headers (frame options, nosniff, referrer and permissions policies, HSTS
// behind an https proxy) and the CSP of the JSON routes (/v1, /api) are static: next.config.mjs.
import { NextResponse, type NextRequest } from "next/server";

export function proxy(request: NextRequest) {
  const nonce = createNonce();
  const secure = isHttps(request);
  const csp = contentSecurityPolicy(nonce, { secure, dev: process.env.NODE_ENV === "development" });

  // Next takes the nonce for its scripts from the request's CSP header.
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", csp);
  requestHeaders.delete("content-security-policy-report-only");
  // Lets the signed-in layout send a signed-out visitor back to this very page after sign-in
  // (set here, so a client cannot choose it).
  requestHeaders.set("x-pathname", request.nextUrl.pathname + request.nextUrl.search);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  if (secure) response.headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  return response;
}

export const config = {
  // Pages only: the JSON routes get a fixed, stricter policy from next.config.mjs, and built
  // assets (scripts, styles, icons) are not documents a policy would apply to.
  matcher: ["/((?!v1(?:/|$)|api(?:/|$)|_next/static/|_next/image|favicon\\.ico$).*)"],
};

/**
 * The policy of an HTML page: scripts only with this response's nonce (and what those load:
 * `strict-dynamic`), no plugins, no <base>, forms post only to this site, never framed. Style
 * elements need the nonce too; style *attributes* stay allowed (they cannot run script, and
 * url() loads in them are still limited by img-src/font-src).
 */
export function contentSecurityPolicy(nonce: string, { secure, dev }: { secure: boolean; dev: boolean }): string {
  const directives = [
    "default-src 'self'",
    // React needs eval only in development, for its error overlays.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'${dev ? " 'unsafe-inline'" : ""}`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(secure ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/** Reached over https: PUBLIC_URL says so, or the proxy in front (X-Forwarded-Proto), or the URL. */
function isHttps(request: NextRequest): boolean {
  const publicUrl = process.env.PUBLIC_URL;
  if (publicUrl) {
    try {
      if (new URL(publicUrl).protocol === "https:") return true;
    } catch {
      // An invalid PUBLIC_URL is reported by the app's env check, not here.
    }
  }
  const proto = request.headers.get("x-forwarded-proto")?.split(",", 1)[0]?.trim().toLowerCase();
  if (proto) return proto === "https";
  return request.nextUrl.protocol === "https:";
}
