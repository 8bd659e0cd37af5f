// The front door: what the server (server.mjs) checks before Next.js sees a request, and what the app
// shares with those checks: the methods answered, the body limits, the guard errors, the trusted
// proxies and the client's address, the forwarding headers sanitized, the paths refused or
// normalized, the request id, and the path as logs show it. Why the checks live here and not in
// route handlers: docs/security.md ("The front door"). Unit-tested in test/server/guards.test.ts.
//
// Like the rest of lib/http, a leaf: it calls nothing of the app, so the app calls down into it,
// never back up. server.mjs loads this file with Node's own type stripping, outside the Next build:
// so only relative imports, with their `.ts` extension, and only erasable TypeScript.
import { BlockList, isIP } from "node:net";
import { ERROR_CODES } from "../domain/error-codes.ts";
import { MAX_SEALED_PDF_BYTES, MAX_UPLOADED_PDF_BYTES } from "../domain/file-content.ts";
import { firstValue, isValidHost } from "./origin.ts";

type THeaders = Record<string, string | string[] | undefined>;

/** The most any request body may be, on every route (the /v1 readers enforce the same: lib/api/endpoint.ts). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Uploads (POST /v1/contracts/{id}/files, multipart) may be larger: a contract's uploaded PDF
 * (MAX_UPLOADED_PDF_BYTES) and the form's parts around it. The route reads the body with this bound
 * too, counting as it streams.
 */
export const UPLOAD_MAX_BODY_BYTES = MAX_UPLOADED_PDF_BYTES + 64 * 1024;
const UPLOAD_PATH = /^\/v1\/contracts\/[^/?]+\/files(?:\?|$)/;

/**
 * POST /v1/verify takes a sealed copy as it is (the raw body; the route reads it with this bound):
 * the largest a sealed copy may be (an uploaded PDF that would seal larger is refused at upload).
 */
export const VERIFY_MAX_BODY_BYTES = MAX_SEALED_PDF_BYTES;
const VERIFY_PATH = /^\/v1\/verify(?:\?|$)/;

/** The most this request's body may be. */
export function maxBodyBytes(method: string | undefined, url: string | undefined): number {
  if (method !== "POST" || url === undefined) return MAX_BODY_BYTES;
  if (UPLOAD_PATH.test(url)) return UPLOAD_MAX_BODY_BYTES;
  return VERIFY_PATH.test(url) ? VERIFY_MAX_BODY_BYTES : MAX_BODY_BYTES;
}

/** Methods the app answers; anything else (TRACE, CONNECT, PROPFIND, …) is a 405. */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** The API's error codes (lib/domain/error-codes.ts) that the front door's own refusals carry. */
export const GUARD_ERRORS = {
  malformed_path: ERROR_CODES.malformed_path,
  method_not_allowed: ERROR_CODES.method_not_allowed,
  body_too_large: ERROR_CODES.body_too_large,
  invalid_host: ERROR_CODES.invalid_host,
  headers_too_large: ERROR_CODES.headers_too_large,
  route_not_found: ERROR_CODES.route_not_found,
};
export type TGuardError = keyof typeof GUARD_ERRORS;

/** Headers a client could set to lie about where it is or which address it used. */
export const FORWARDING_HEADERS = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "forwarded",
  "x-real-ip",
  "x-client-ip",
  "true-client-ip",
  "cf-connecting-ip",
  "fastly-client-ip",
  "x-cluster-client-ip",
  "x-original-forwarded-for",
];

const LOOPBACK = ["127.0.0.0/8", "::1/128"];
const PRIVATE = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", ...LOOPBACK];

/**
 * `TRUSTED_PROXIES`: comma-separated addresses and CIDR ranges (`10.0.0.5`, `10.0.0.0/8`, `::1`),
 * or the words `loopback` and `private`. Empty or unset: no proxy is trusted. Throws with a message
 * naming the bad entry.
 */
export function parseTrustedProxies(value: string | undefined): BlockList | null {
  const list = new BlockList();
  let count = 0;
  for (const raw of (value ?? "").split(",")) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const expanded = entry === "loopback" ? LOOPBACK : entry === "private" ? PRIVATE : [entry];
    for (const item of expanded) {
      const [address, prefix, extra] = item.split("/");
      const family = isIP(address ?? "");
      const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
      const max = family === 6 ? 128 : 32;
      if (!family || extra !== undefined || !Number.isInteger(bits) || bits < 0 || bits > max || (prefix !== undefined && !/^\d+$/.test(prefix))) {
        throw new Error(`TRUSTED_PROXIES: "${raw.trim()}" is not an IP address, a CIDR range, "loopback" or "private"`);
      }
      list.addSubnet(address!, bits, family === 6 ? "ipv6" : "ipv4");
      count++;
    }
  }
  return count === 0 ? null : list;
}

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) as `1.2.3.4`; other text as is. */
export function normalizeAddress(address: string | undefined): string {
  const text = (address ?? "").trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text);
  return mapped ? mapped[1]! : text;
}

function isTrusted(trusted: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && trusted.check(address, family === 6 ? "ipv6" : "ipv4");
}

/**
 * Who the client is. The socket's peer, unless that peer is a trusted proxy: then the
 * X-Forwarded-For chain is walked from the right (the hop nearest us), skipping trusted proxies, and
 * the first address not trusted is the client. A client can prepend anything to the chain, but
 * cannot forge what our own proxies appended.
 */
export interface TClient {
  address: string;
  viaTrustedProxy: boolean;
}

export function resolveClient(peerAddress: string | undefined, headers: THeaders, trusted: BlockList | null): TClient {
  const peer = normalizeAddress(peerAddress);
  if (!trusted || !isTrusted(trusted, peer)) return { address: peer, viaTrustedProxy: false };
  const chain = String(headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((part) => normalizeAddress(part))
    .filter((part) => part !== "");
  let client = peer;
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = chain[i]!;
    if (isIP(hop) === 0) break; // garbage: stop at the last address we could read
    client = hop;
    if (!isTrusted(trusted, hop)) break;
  }
  return { address: client, viaTrustedProxy: true };
}

/**
 * Rewrites the request's forwarding headers so that everything behind this point reads the truth:
 * `x-forwarded-for` is the one resolved client address; `x-forwarded-proto`/`-host` survive only
 * from a trusted proxy (with sane values), otherwise they are removed and Next fills them in from
 * the connection and `Host`.
 */
export function sanitizeForwardingHeaders(headers: THeaders, client: TClient, socketEncrypted: boolean): void {
  const proto = client.viaTrustedProxy ? firstValue(headers["x-forwarded-proto"])?.toLowerCase() : undefined;
  const host = client.viaTrustedProxy ? firstValue(headers["x-forwarded-host"]) : undefined;
  for (const name of FORWARDING_HEADERS) delete headers[name];
  headers["x-forwarded-for"] = client.address;
  headers["x-forwarded-proto"] = proto === "https" || proto === "http" ? proto : socketEncrypted ? "https" : "http";
  if (host && isValidHost(host)) headers["x-forwarded-host"] = host;
}

/**
 * Whether the request target is a path Next can decode: it starts with `/`, and every segment's
 * percent-escapes decode to valid UTF-8 (`%ff`, `%`, `%C0%AE` do not). A malformed one would
 * otherwise reach Next's own decoding and come back as a bare 500. (Query strings are decoded
 * leniently by every reader, so they are left alone.)
 */
export function isWellFormedTarget(url: string | undefined): boolean {
  if (typeof url !== "string" || !url.startsWith("/") || url.startsWith("//")) return false;
  // A fragment is never sent by a client; Next would read a path that runs past it.
  if (url.includes("#")) return false;
  const end = url.indexOf("?");
  const path = end === -1 ? url : url.slice(0, end);
  // Next redirects a path with `\` to one with `/` (another resource, the target echoed in headers).
  if (path.includes("\\")) return false;
  try {
    for (const segment of path.split("/")) {
      // Dot segments, in any encoding (`.`, `..`, `%2e`, `.%2E`): Next resolves them, so
      // `/v1/contracts/1/%2e%2e/%2e%2e/webhooks/5` would reach another route than the path names,
      // past any check of the path as sent. Clients resolve them before sending; a raw one is refused.
      for (const part of decodeURIComponent(segment).split("/")) if (part === "." || part === "..") return false;
    }
  } catch {
    return false;
  }
  return true;
}

/**
 * Request headers of Next's own client router and of the Pages Router, which make Next answer a
 * JSON route itself instead of running its handler (`RSC: 1` → a 307 echoing the target,
 * `x-middleware-prefetch: 1` → a 200 `{}` with no authentication at all). The JSON routes are
 * never navigated to, so these are removed from their requests; `x-middleware-prefetch` belongs
 * to the Pages Router, which this app does not use, so it is removed from every request.
 */
export const ROUTER_HEADERS = ["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-url", "next-action", "next-hmr-refresh"];

/** Removes the router headers above from a request's headers (all of them for a JSON route). */
export function removeRouterHeaders(headers: THeaders, jsonRoute: boolean): void {
  delete headers["x-middleware-prefetch"];
  if (jsonRoute) for (const name of ROUTER_HEADERS) delete headers[name];
}

/**
 * Whether the target is one of Next's Pages Router data routes (`/_next/data/<build>/….json`):
 * with a proxy (middleware) present Next rewrites it to the route it names and runs that route,
 * a JSON route included, past the checks made on `/v1` paths. This app has no Pages Router.
 */
export function isPagesDataRoute(url: string | undefined): boolean {
  return /^\/_next\/data(?:[/?]|$)/i.test(String(url ?? ""));
}

/**
 * Whether the target is Next's own page for an error in the root layout (`/_global-error`, with
 * `.rsc` or a query): requested directly it renders that error and answers 500, which anyone could
 * then raise at will (an alert on the 5xx rate). It is Next's, never a page of this app's.
 */
export function isGlobalErrorPage(url: string | undefined): boolean {
  return /^\/_global-error(?:[/?.]|$)/i.test(String(url ?? ""));
}

/**
 * Whether a JSON route's path has an empty segment (`/v1/contracts/1/parties//participants/2`, after
 * trailing slashes are gone). Next would answer it with a 308 to the path with the slashes merged:
 * another resource (a PUT that follows it would write elsewhere), and a `Location` as long as the
 * request's target. An id left empty is the client's mistake, so it is refused instead.
 */
export function hasEmptySegment(url: string | undefined): boolean {
  const target = String(url ?? "");
  const end = target.search(/[?#]/);
  return (end === -1 ? target : target.slice(0, end)).includes("//");
}

const JSON_ROUTE = /^\/(?:v1|api)(?:[/?#]|$)/;

/**
 * `/v1/…` and `/api/…` answer JSON in the API's error shape; everything else is a page. Decided on
 * the path as sent and as decoded, so that no check of a JSON route depends on how its path is
 * escaped (`/v%31/ping`, `/api%2Ftokens`: Next 16 answers them 404 today, but a router that finds
 * routes by their decoded path would not).
 */
export function isJsonRoute(url: string | undefined): boolean {
  const target = String(url ?? "");
  if (JSON_ROUTE.test(target)) return true;
  if (!target.includes("%")) return false;
  const end = target.search(/[?#]/);
  try {
    return JSON_ROUTE.test(decodeURIComponent(end === -1 ? target : target.slice(0, end)));
  } catch {
    return false;
  }
}

// Reusing the caller's id ties their logs to ours; anything odd is replaced, not logged verbatim.
const REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/** A sane incoming `X-Request-Id` (the front door's and the API handler's), else undefined. */
export function incomingRequestId(value: string | string[] | null | undefined): string | undefined {
  const id = (Array.isArray(value) ? value[0] : value)?.trim();
  return id && REQUEST_ID.test(id) ? id : undefined;
}

/**
 * A path as logs may keep it: a signing link's token (`/sign/{token}`, `/api/sign/{token}/…`) and a
 * calendar feed's (`/api/calendar/{token}.ics`) are credentials, so they are replaced by `{token}`.
 */
export function redactPath(path: string): string {
  let text = String(path);
  // Every request's log line passes here: most paths hold neither to look for.
  if (text.includes("sign/")) text = text.replace(/(^|\/)(sign)\/[^/?#]*/, "$1$2/{token}");
  if (text.includes("calendar/")) text = text.replace(/(^|\/)(calendar)\/[^/?#]*/, "$1$2/{token}");
  return text;
}

/**
 * The target of a JSON route without trailing slashes (`/v1/contracts/12/` → `/v1/contracts/12`,
 * query kept), so it is answered as that path instead of Next's redirect with a relative
 * `Location` that API clients written for Oneflow do not follow. Pages keep Next's behaviour.
 */
export function withoutTrailingSlash(url: string | undefined): string {
  const target = String(url ?? "");
  if (!isJsonRoute(target)) return target;
  const cut = target.search(/[?#]/);
  const path = cut === -1 ? target : target.slice(0, cut);
  const rest = cut === -1 ? "" : target.slice(cut);
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === path || trimmed === "" ? target : trimmed + rest;
}
