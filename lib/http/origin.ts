// The origin of a request: the one the client used (`requestOrigin`), which links in answers are
// written under (lib/http/links.ts); the origins this app's own pages are served from (`appOrigins`,
// the CSRF check of staff sessions); and the one rule both follow, which the front door's own
// refusals use too (`linkOrigin`). A leaf, loaded by server.mjs with Node's type stripping (see
// lib/http/front-door.ts): relative imports with `.ts`, erasable TypeScript only. Unit-tested in
// test/api/origin.test.ts.
import { isIP } from "node:net";

/**
 * The origin (`scheme://host[:port]`) the client used, which links in answers are written under:
 * `publicUrl`'s (PUBLIC_URL) when set; else `X-Forwarded-Proto` and `-Host` (which the front door
 * keeps only from a trusted proxy: `sanitizeForwardingHeaders`), else `Host`, else the URL the
 * server saw (`linkOrigin`).
 */
export function requestOrigin(req: Request, publicUrl: string | undefined, url: URL = new URL(req.url)): string {
  const forwardedProto = firstValue(req.headers.get("x-forwarded-proto") ?? undefined)?.toLowerCase();
  const proto = forwardedProto === "https" || forwardedProto === "http" ? forwardedProto : url.protocol.slice(0, -1);
  const hosts = [firstValue(req.headers.get("x-forwarded-host") ?? undefined), firstValue(req.headers.get("host") ?? undefined)];
  return linkOrigin(publicUrl, proto, hosts, url.origin);
}

/**
 * The origins this app's own pages are served from, as far as `req` tells: the one it was sent to
 * (`requestOrigin`) and PUBLIC_URL's. A change made with a staff session must name one in `Origin`
 * (CSRF); the /v1 routes (lib/api/auth.ts) and sign-in (lib/auth/server.ts) both ask this.
 */
export function appOrigins(req: Request, publicUrl: string | undefined): string[] {
  const own = requestOrigin(req, undefined);
  return publicUrl ? [own, requestOrigin(req, publicUrl)] : [own];
}

/**
 * The one rule for the origin of links, for the app's requests (`requestOrigin`) and the front
 * door's own refusals (server.mjs, before the forwarding headers are sanitized): `publicUrl`'s
 * origin when set; else `proto://` the first of `hosts` that is plain (`isValidHost`: anything else
 * is ignored rather than echoed); else `fallback`. Written as the URL parser writes an origin (lower
 * case, no default port), so a link is the origin and a path.
 */
export function linkOrigin(publicUrl: string | undefined, proto: string, hosts: readonly (string | undefined)[], fallback: string): string {
  if (publicUrl) return parsedOrigin(publicUrl) ?? fallback;
  const host = hosts.find(isValidHost);
  return (host !== undefined ? parsedOrigin(`${proto}://${host}`) : null) ?? fallback;
}

// The last origin parsed: a process mostly serves one host, so the URL parser runs once per new one.
let lastCandidate: string | undefined;
let lastParsed: string | null = null;

/** `candidate`'s origin as the URL parser writes it, or null when it does not parse. */
function parsedOrigin(candidate: string): string | null {
  if (candidate !== lastCandidate) {
    lastParsed = URL.canParse(candidate) ? new URL(candidate).origin : null;
    lastCandidate = candidate;
  }
  return lastParsed;
}

/**
 * Whether a `Host` header is a plain `host[:port]`: a DNS name, an IPv4 address or a bracketed IPv6
 * address, and a port of 1–65535. Links in answers are built from it, so anything else (a port out
 * of range, a path, spaces) is refused rather than carried into a URL.
 */
export function isValidHost(host: string | undefined): boolean {
  if (typeof host !== "string" || host.length === 0 || host.length > 255) return false;
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)(?::(\d{1,5}))?$/.exec(host);
  if (!match) return false;
  if (match[2] !== undefined && (Number(match[2]) < 1 || Number(match[2]) > 65535)) return false;
  if (match[1]!.startsWith("[") && isIP(match[1]!.slice(1, -1)) !== 6) return false;
  return true;
}

/** The first of a header's comma-separated values, trimmed; undefined when there is none. */
export function firstValue(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const first = text?.split(",", 1)[0]?.trim();
  return first ? first : undefined;
}
