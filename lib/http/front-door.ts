// The HTTP edge, shared by the server (server.mjs) and the app: what the front door checks before
// Next.js sees a request, and the constants the app shares with it (the body limit, the security
// headers, the guard errors); what a request says about itself (its id, its public origin beside the
// forwarding headers sanitized here, the path as logs show it, the versions `If-Match` names); and
// how a JSON answer goes out (as one chunk the API lane writes as it is). Everything here is a leaf:
// it calls nothing of the app, so the app's handlers call down into it, never back up. server.mjs
// loads this file with Node's own type stripping, outside the Next build: so only relative imports,
// with their `.ts` extension, and only erasable TypeScript. Unit-tested in test/server/guards.test.ts
// and test/api/origin.test.ts; why the checks live here and not in route handlers: docs/security.md
// ("The front door").
import { BlockList, isIP } from "node:net";
import { ERROR_CODES } from "../domain/error-codes.ts";

type THeaders = Record<string, string | string[] | undefined>;

/** The most any request body may be, on every route (the /v1 readers enforce the same: lib/api/endpoint.ts). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Attachment uploads (POST /v1/contracts/{id}/files, multipart) may be larger: a 10 MB file and the
 * form's parts around it. The route reads the body with this bound too, counting as it streams.
 */
export const UPLOAD_MAX_BODY_BYTES = 10_000_000 + 64 * 1024;
// …and POST /v1/verify (a sealed PDF to check), bounded the same.
const UPLOAD_PATH = /^\/v1\/(?:contracts\/[^/?]+\/files|verify)(?:\?|$)/;

/** The most this request's body may be. */
export function maxBodyBytes(method: string | undefined, url: string | undefined): number {
  return method === "POST" && url !== undefined && UPLOAD_PATH.test(url) ? UPLOAD_MAX_BODY_BYTES : MAX_BODY_BYTES;
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

/** JSON answers are never documents: if a browser is ever made to render one, nothing runs. */
export const JSON_ROUTE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
/** The front door's own error pages: an inline style, nothing else. */
export const ERROR_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The headers of a refusal the front door writes itself: a JSON answer's or an error page's. */
export function refusalSecurityHeaders(json: boolean): Record<string, string> {
  return { ...SECURITY_HEADERS, "Content-Security-Policy": json ? JSON_ROUTE_CSP : ERROR_PAGE_CSP };
}

/** Headers a client could set to lie about where it is or which address it used. */
export const FORWARDING_HEADERS = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "forwarded",
  "x-real-ip",
  "x-client-ip",
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

function firstValue(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const first = text?.split(",", 1)[0]?.trim();
  return first ? first : undefined;
}

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
 * A path as logs may keep it: a signing link's token (`/sign/{token}`, `/api/sign/{token}/…`) is a
 * credential, so it is replaced by `{token}`.
 */
export function redactPath(path: string): string {
  const text = String(path);
  // Every request's log line passes here: most paths hold no `sign/` to look for.
  return text.includes("sign/") ? text.replace(/(^|\/)(sign)\/[^/?#]*/, "$1$2/{token}") : text;
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

// ——— What a request says of the version it saw, and how a JSON answer goes out ———
// Read and written by the app's handlers (lib/api) below its wrapper, which never calls back up.

/**
 * The versions the tags in `If-Match` (a context's `ifMatch`) name: what follows `prefix` (the start
 * of the resource's own tags, opening quote included) when `valid` accepts it; undefined when there
 * is no header or it is `*` (any version). Tags are compared strongly, so a weak tag (`W/"…"`) names
 * nothing; an empty or unparsable header names nothing either: a client that meant to send a tag but
 * sent garbage must not overwrite someone else's change. The participant's and the contract text's
 * PUT use it (lib/api/json/participant.ts, document.ts).
 */
export function ifMatchVersions(ifMatch: string | null, prefix: string, valid: RegExp): readonly string[] | undefined {
  if (ifMatch === null || ifMatch.trim() === "*") return undefined;
  const versions: string[] = [];
  for (const raw of ifMatch.split(",")) {
    const tag = raw.trim();
    if (!tag.startsWith(prefix) || !tag.endsWith('"')) continue;
    const version = tag.slice(prefix.length, -1);
    if (valid.test(version)) versions.push(version);
  }
  return versions;
}

/** A JSON answer (200 unless `init` says otherwise). */
export function json(body: unknown, init?: ResponseInit): Response {
  return jsonText(JSON.stringify(body), init);
}

/**
 * An answer whose JSON is already written, as text or as its UTF-8 bytes. The body goes to
 * `Response` as bytes: given a string (as `Response.json` does), undici first checks it character
 * by character for lone surrogates, which costs more than the encoding itself on a 100 KB list.
 */
export function jsonText(text: string | Buffer<ArrayBuffer>, init?: ResponseInit): Response {
  const body = bodyOf(typeof text === "string" ? Buffer.from(text, "utf8") : text);
  // Most answers set no header of their own: no Headers object to build and search first.
  if (init?.headers === undefined) return new Response(body, { ...init, headers: JSON_CONTENT_TYPE });
  // A plain record without a Content-Type (an ETag, say): one record, which Response reads once.
  const own = init.headers;
  if (!(own instanceof Headers) && !Array.isArray(own) && !Object.keys(own).some((name) => name.toLowerCase() === "content-type")) {
    return new Response(body, { ...init, headers: { ...JSON_CONTENT_TYPE, ...own } });
  }
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("Content-Type", "application/json");
  return new Response(body, { ...init, headers });
}

const JSON_CONTENT_TYPE = { "Content-Type": "application/json" } as const;

/**
 * `Response` copies bytes it is given (undici takes a copy of a BufferSource body, then wraps it in
 * a byte stream of its own); a stream's chunks it passes on as they are. So an answer's bytes go in
 * a stream of one chunk (not a byte stream, which would take the buffer over): never copied on the
 * way out, and at every size cheaper than the copy (on Node 24, 2.3 against 5.3 µs for 2 KB, 4
 * against 44 µs for 100 KB: bench/results/history.md "A list's 110 KB copied once").
 * A small Buffer is a slice of Node's shared 8 KB pool, so whatever reads this stream must write
 * the chunk as it is (the lane's `res.end`, Next's `res.write`): never transfer it, or read its
 * `.buffer` whole.
 */
function bodyOf(bytes: Buffer<ArrayBuffer>): BodyInit {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
