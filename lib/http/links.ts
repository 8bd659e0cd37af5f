// Absolute links in answers: an origin (`requestOrigin`, lib/http/origin.ts) and a path.
/**
 * `compute`, remembering its last argument and answer: a request's links share one origin, and
 * requests mostly that of the one before, so `isPlainOrigin` runs once per new origin.
 */
function keepLast<T>(compute: (origin: string) => T): (origin: string) => T {
  let lastKey: string | undefined;
  let lastValue: T;
  return (origin) => {
    if (origin !== lastKey) {
      lastValue = compute(origin);
      lastKey = origin;
    }
    return lastValue;
  };
}

export type TQueryValues = Record<string, string | number | boolean | null | undefined>;

/** `origin` + `path`, with `query` values appended in order; null and undefined values are left out. */
export function absoluteUrl(origin: string, path: string, query?: TQueryValues | URLSearchParams): string {
  const plain = plainUrl(origin, path, query);
  if (plain !== null) return plain;
  const url = new URL(path, origin.endsWith("/") ? origin : `${origin}/`);
  const entries = query instanceof URLSearchParams ? [...query] : Object.entries(query ?? {});
  for (const [key, value] of entries) {
    if (value !== null && value !== undefined) url.searchParams.append(key, String(value));
  }
  return url.toString();
}

/** Characters that neither the URL parser nor form encoding changes, in a path segment or a query key or value. */
const PLAIN = /^[A-Za-z0-9_.*-]*$/;
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)+$/;
const PLAIN_ORIGIN = /^(https?):\/\/([a-z0-9.-]+)(?::([1-9][0-9]{0,4}))?$/;
const NAME = /^(?!xn--)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const LAST_NAME = /^[a-z][a-z0-9-]*$/;
const OCTET = /^(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;

/** An origin the URL parser gives back as it is: a lower-case name or a plain IPv4 address, no default port. */
const isPlainOrigin = keepLast((origin: string): boolean => {
  const m = PLAIN_ORIGIN.exec(origin);
  if (!m) return false;
  const [, scheme, host, port] = m;
  if (port !== undefined && (Number(port) > 65535 || port === (scheme === "http" ? "80" : "443"))) return false;
  const labels = host!.split(".");
  // A host whose last label is a number is an IPv4 address to the parser (which rewrites `1.2.3`).
  if (labels.length === 4 && labels.every((label) => OCTET.test(label))) return true;
  return labels.every((label) => NAME.test(label)) && LAST_NAME.test(labels.at(-1)!);
});

/**
 * `absoluteUrl` written by concatenation, for what the URL parser would give back unchanged: an
 * origin of lower-case host and optional port, a path of plain segments (none starting with a dot),
 * and query keys and values of plain characters. Else null (and the URL parser builds it). Every
 * page link of a list passes here; `test/api/origin.test.ts` holds the two ways equal.
 */
function plainUrl(origin: string, path: string, query?: TQueryValues | URLSearchParams): string | null {
  if (query instanceof URLSearchParams || !PLAIN_PATH.test(path) || !isPlainOrigin(origin)) return null;
  let search = "";
  if (query) {
    for (const key in query) {
      const value = query[key];
      if (value === null || value === undefined) continue;
      const text = String(value);
      if (!PLAIN.test(key) || !PLAIN.test(text)) return null;
      search += `${search ? "&" : "?"}${key}=${text}`;
    }
  }
  return origin + path + search;
}
