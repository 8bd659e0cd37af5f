import { env } from "@/lib/env";

// What a forwarded header may contain before we put it into links: a scheme we serve and a plain
// host[:port]. Anything else (a path, credentials, spaces) is ignored rather than echoed.
const PROTO = /^https?$/;
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/** The first value of a possibly comma-joined header (proxies append theirs). */
function firstValue(header: string | null): string | undefined {
  const value = header?.split(",", 1)[0]?.trim();
  return value ? value : undefined;
}

/**
 * The origin (`https://host[:port]`) links in answers are built on: `PUBLIC_URL` when set, else what
 * the client used as far as the proxy in front tells us (`X-Forwarded-Proto/Host`), else `Host`, else
 * the URL the server saw. Only the origin of `PUBLIC_URL` is used (the app has no base path).
 */
export function requestOrigin(req: Request, publicUrl: string | undefined = env().PUBLIC_URL): string {
  if (publicUrl) return new URL(publicUrl).origin;
  const url = new URL(req.url);
  const forwardedProto = firstValue(req.headers.get("x-forwarded-proto"))?.toLowerCase();
  const proto = forwardedProto && PROTO.test(forwardedProto) ? forwardedProto : url.protocol.replace(/:$/, "");
  const host = [firstValue(req.headers.get("x-forwarded-host")), firstValue(req.headers.get("host"))].find(
    (h): h is string => h !== undefined && HOST.test(h),
  );
  const origin = `${proto}://${(host ?? url.host).toLowerCase()}`;
  // The pattern cannot see a port out of range (`:99999`); the URL parser can.
  return URL.canParse(origin) ? origin : url.origin;
}

export type TQueryValues = Record<string, string | number | boolean | null | undefined>;

/** `origin` + `path`, with `query` values appended in order; null and undefined values are left out. */
export function absoluteUrl(origin: string, path: string, query?: TQueryValues | URLSearchParams): string {
  const url = new URL(path, origin.endsWith("/") ? origin : `${origin}/`);
  const entries = query instanceof URLSearchParams ? [...query] : Object.entries(query ?? {});
  for (const [key, value] of entries) {
    if (value !== null && value !== undefined) url.searchParams.append(key, String(value));
  }
  return url.toString();
}

/** The origin links are written under, without a trailing slash (for links PostgreSQL writes: `linkBase || '/v1/…'`). */
export function linkBase(origin: string): string {
  return absoluteUrl(origin, "/").replace(/\/$/, "");
}
