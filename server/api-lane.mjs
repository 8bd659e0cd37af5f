// The API lane: the front door hands a `/v1` request straight to its App Router route handler, the
// exported `GET`/`PUT`/… of `app/v1/**/route.ts` as `next build` compiled it, instead of through
// Next's router, render server and route module (which cost about 0.5 ms of CPU per request, more
// than the whole of most of our handlers; docs/performance.md, "The API lane").
//
// It does what Next does for such a request, with Next's own code where Next has it:
//   - the route: the build's manifests, Next's route regexes and matcher (params decoded as Next
//     decodes them), static routes before dynamic ones, in Next's order;
//   - the method: the route module's own `resolveHandler` (HEAD from GET, OPTIONS with `Allow`,
//     405 for a method the file does not export);
//   - the request: a `Request` with the URL Next would give (`http://<hostname>:<port><path>`), the
//     headers as the front door left them, the body streamed from the socket, an abort signal;
//   - the answer: the `headers()` of next.config (matched with Next's path matcher and `has`), then
//     the handler's headers as Next's `sendResponse` merges them, compressed by Next's own
//     `compression` middleware when the client accepts it. Unlike Next, which streams it, an
//     answer of one chunk goes out with its Content-Length (so the compressor, which then knows
//     the size, leaves one under 1 KiB as it is).
//
// It takes only what it can answer exactly as Next would; everything else goes to Next: paths with
// a percent-escape or a backslash, queries with Next's internal keys, paths the proxy (proxy.ts)
// runs on, and every path no `/v1` route handler matches. It is off in development (Next compiles
// routes on demand there), with API_LANE=off, and when the build has rewrites, redirects, a base
// path or locales. test/http/api-lane.test.ts holds its answers equal to Next's.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { readAtMost } from "./read-body.mjs";

const require = createRequire(import.meta.url);
/** A query that Next's parse-and-format gives back unchanged: `k=v` pairs of characters neither encodes. */
const PLAIN_QUERY = /^[A-Za-z0-9_.*-]+=[A-Za-z0-9_.*-]*(?:&[A-Za-z0-9_.*-]+=[A-Za-z0-9_.*-]*)*$/;
/** Whether a rule's `has`/`missing` conditions read the query. */
function readsQuery(rule) {
  return [...(rule.has ?? []), ...(rule.missing ?? [])].some((condition) => condition.type === "query");
}
/** A key given twice (formatting groups a key's values, which can reorder the pairs). */
function hasRepeatedKey(query) {
  if (!query.includes("&")) return false;
  const keys = query.split("&").map((pair) => pair.slice(0, pair.indexOf("=")));
  return new Set(keys).size !== keys.length;
}
/** Cache-Control's no-transform, as the compressor reads it. */
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/;
const EMPTY = new Uint8Array(0);
/**
 * A body declared at most this long is read whole before the handler runs, and the `Request` gets
 * the bytes: reading a `Request` that streams from the socket (undici's bridge from a Node stream)
 * cost ~30 µs more per request than one holding its bytes. Larger ones stream as before, so a
 * client the handler refuses early (a bad token) never makes the server hold more than this.
 */
export const LANE_READS_WHOLE = 64 * 1024;
/** Once `res` can take more, or is closed. */
function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
const APP_VARY = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";

/** API_LANE: "on" (the default) or "off". */
export function parseApiLane(value) {
  if (value === undefined || value === "" || value === "on") return true;
  if (value === "off") return false;
  throw new Error(`API_LANE must be "on" or "off", not ${JSON.stringify(value)}.`);
}

/**
 * The lane for the build in `distDir`, or `{ reason }` when it cannot take any request.
 * `handle(req, res)` returns false and leaves the request to Next, or answers it and returns the
 * promise of that answer.
 */
export function createApiLane({ distDir, hostname, port }) {
  const read = (file) => JSON.parse(fs.readFileSync(path.join(distDir, file), "utf8"));
  let routesManifest, appPaths, appPathRoutes, required;
  try {
    routesManifest = read("routes-manifest.json");
    appPaths = read("server/app-paths-manifest.json");
    appPathRoutes = read("app-path-routes-manifest.json");
    required = read("required-server-files.json");
  } catch (error) {
    return { reason: `no production build to read (${error.code ?? error.message})` };
  }
  const config = required.config ?? {};
  const rewrites = routesManifest.rewrites ?? {};
  const rewriteCount = Array.isArray(rewrites) ? rewrites.length : (rewrites.beforeFiles?.length ?? 0) + (rewrites.afterFiles?.length ?? 0) + (rewrites.fallback?.length ?? 0);
  if (rewriteCount > 0) return { reason: "the build has rewrites" };
  if ((routesManifest.redirects ?? []).some((r) => !r.internal)) return { reason: "the build has redirects" };
  if (routesManifest.basePath) return { reason: "the build has a base path" };
  if (routesManifest.i18n || config.i18n) return { reason: "the build has locales" };

  const { getRouteRegex } = require("next/dist/shared/lib/router/utils/route-regex");
  const { getRouteMatcher } = require("next/dist/shared/lib/router/utils/route-matcher");
  const { getSortedRoutes } = require("next/dist/shared/lib/router/utils/sorted-routes");
  const { getPathMatch } = require("next/dist/shared/lib/router/utils/path-match");
  const { matchHas, compileNonPath } = require("next/dist/shared/lib/router/utils/prepare-destination");
  const { splitCookiesString } = require("next/dist/server/web/utils");
  const { formatHostname } = require("next/dist/server/lib/format-hostname");
  const { parseReqUrl } = require("next/dist/lib/url");
  const { formatUrl } = require("next/dist/shared/lib/router/utils/format-url");
  const { modifyRouteRegex } = require("next/dist/lib/redirect-status");
  const { releaseCompressionStream } = require("next/dist/server/lib/release-compression-stream");
  const compression = require("next/dist/compiled/compression");
  const compress = config.compress === false ? null : compression();
  const compressionFilter = compression.filter;

  // The `/v1` route handlers: page "/v1/contracts/[contract_id]" → its compiled entry.
  const entries = new Map();
  for (const [entry, page] of Object.entries(appPathRoutes)) {
    if (!entry.endsWith("/route") || !(page === "/v1" || page.startsWith("/v1/"))) continue;
    const file = appPaths[entry];
    if (file) entries.set(page, { entry, file: path.join(distDir, "server", file), module: null });
  }
  if (entries.size === 0) return { reason: "the build has no /v1 route handlers" };
  const isDynamic = (page) => page.includes("[");
  const staticRoutes = new Map([...entries].filter(([page]) => !isDynamic(page)));
  const dynamicRoutes = getSortedRoutes([...entries.keys()].filter(isDynamic)).map((page) => ({
    page,
    match: getRouteMatcher(getRouteRegex(page)),
    route: entries.get(page),
  }));

  // next.config's headers(), built as Next builds them (filesystem.ts buildCustomRoute). A rule
  // whose names and values have no `:param` to fill in needs only its pattern's test, not the
  // matcher's params.
  const caseSensitive = Boolean(config.experimental?.caseSensitiveRoutes);
  const headerRules = (routesManifest.headers ?? []).map((item) => {
    let built = "";
    const match = getPathMatch(item.source, {
      strict: true,
      removeUnnamedParams: true,
      regexModifier: (regex) => (built = item.internal ? regex : modifyRouteRegex(regex)),
      sensitive: caseSensitive,
    });
    const placeholders = item.headers.some(({ key, value }) => key.includes(":") || value.includes(":"));
    const test = placeholders ? null : new RegExp(built, caseSensitive ? "" : "i");
    return { ...item, match, test, readsQuery: readsQuery(item) };
  });
  // The proxy (proxy.ts): a path it runs on goes to Next. Its matchers, as Next's
  // getMiddlewareRouteMatcher reads them, with each pattern compiled once.
  const proxyMatchers = [];
  for (const [file, key] of [["server/functions-config-manifest.json", "functions"], ["server/middleware-manifest.json", "middleware"]]) {
    let infos;
    try {
      infos = Object.values(read(file)[key] ?? {});
    } catch {
      continue; // no such manifest in this build
    }
    for (const info of infos) {
      for (const matcher of info.matchers ?? [{ regexp: "^/.*$" }]) proxyMatchers.push({ ...matcher, re: new RegExp(matcher.regexp), readsQuery: readsQuery(matcher) });
    }
  }
  const runsProxy = (pathname, req, url, q) =>
    proxyMatchers.some((m) => m.re.test(pathname) && (!(m.has || m.missing) || Boolean(matchHas(req, queryOf(url, q, m), m.has, m.missing))));
  // The origin of the URL Next gives a route (resolve-routes' initURL), made once for each scheme.
  const host = port ? `${formatHostname(hostname || "localhost")}:${port}` : "localhost";
  const origins = { http: `http://${host}`, https: `https://${host}` };

  function find(pathname) {
    const route = staticRoutes.get(pathname);
    if (route) return { route, params: {} };
    for (const candidate of dynamicRoutes) {
      const params = candidate.match(pathname);
      if (params) return { route: candidate.route, params };
    }
    return null;
  }

  async function load(route) {
    if (!route.module) {
      const { routeModule } = require(route.file);
      await routeModule.ensureUserland?.();
      route.module = routeModule;
    }
    return route.module;
  }

  function handle(req, res) {
    const url = req.url;
    const q = url.indexOf("?");
    const pathname = q === -1 ? url : url.slice(0, q);
    if (!pathname.startsWith("/v1/") || pathname.includes("%") || pathname.includes("\\")) return false;
    if (q !== -1) {
      const search = url.slice(q).toLowerCase();
      if (search.includes("nxt") || search.includes("_rsc") || search.includes("nextinternallocale")) return false;
    }
    if (runsProxy(pathname, req, url, q)) return false;
    const found = find(pathname);
    if (!found) return false;
    return answer(req, res, pathname, url, q, found);
  }

  /** The query as Next's `has` conditions read it (a key given twice: its values in a list); parsed only for a condition on it. */
  function queryOf(url, q, rule) {
    if (q === -1 || !rule.readsQuery) return {};
    return parseReqUrl(url).query;
  }

  async function answer(req, res, pathname, url, q, { route, params }) {
    const routeModule = route.module ?? (await load(route));
    // Next's headers() first: a handler's header of the same name does not replace them.
    for (const rule of headerRules) {
      if (rule.test && !rule.test.test(pathname)) continue;
      const matched = rule.test ? {} : rule.match(pathname);
      if (!matched) continue;
      let ruleParams = matched;
      if (rule.has || rule.missing) {
        const hasParams = matchHas(req, queryOf(url, q, rule), rule.has, rule.missing);
        if (!hasParams) continue;
        ruleParams = Object.assign(matched, hasParams);
      }
      const interpolate = !rule.test && Object.keys(ruleParams).length > 0;
      for (const { key, value } of rule.headers) {
        const name = interpolate ? compileNonPath(key, ruleParams) : key;
        const text = interpolate ? compileNonPath(value, ruleParams) : value;
        if (name.toLowerCase() === "set-cookie") res.appendHeader(name, text);
        else res.setHeader(name, text);
      }
    }
    // As Next's base server does for every App Router path (setVaryHeader).
    res.appendHeader("vary", APP_VARY);
    delete req.headers["next-url"];
    // No Accept-Encoding: nothing to negotiate, so the compressor is not set up (below, the Vary
    // it would have added).
    const negotiates = compress !== null && req.headers["accept-encoding"] !== undefined;
    if (negotiates) {
      compress(req, res, () => {});
      res.once("close", () => {
        if (!res.writableFinished) releaseCompressionStream(res);
      });
    }

    const aborted = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) aborted.abort();
    });
    // As Next's fromNodeOutgoingHttpHeaders reads them; as pairs, which Request copies once.
    const headers = [];
    for (const name in req.headers) {
      const value = req.headers[name];
      if (Array.isArray(value)) for (const v of value) headers.push([name, v]);
      else if (value !== undefined) headers.push([name, String(value)]);
    }
    const method = req.method;
    const hasBody = method !== "GET" && method !== "HEAD";
    let body = hasBody ? req : undefined;
    if (hasBody && req.headers["content-length"] !== undefined && Number(req.headers["content-length"]) <= LANE_READS_WHOLE) {
      // Node's parser ends the body at its declared length, so it cannot pass LANE_READS_WHOLE.
      const whole = await readAtMost(req, LANE_READS_WHOLE);
      if (!whole) return void res.destroy(); // the client went away mid-body
      body = whole;
    }
    const secure = Boolean(req.socket.encrypted) || String(req.headers["x-forwarded-proto"] ?? "").includes("https");
    const request = new Request((secure ? origins.https : origins.http) + normalizedTarget(url, q), {
      method,
      headers,
      signal: aborted.signal,
      ...(body === undefined ? {} : { body, duplex: "half" }),
    });
    const response = await routeModule.resolveHandler(method)(request, { params: Promise.resolve(params) });

    res.statusCode = response.status;
    if (response.statusText) res.statusMessage = response.statusText;
    response.headers.forEach((value, name) => {
      if (name === "content-length" || name === "content-encoding" || name === "transfer-encoding" || name === "x-middleware-set-cookie") return;
      if (name === "set-cookie") {
        for (const cookie of splitCookiesString(value)) res.appendHeader(name, cookie);
      } else if (name === "vary" || name === "www-authenticate" || name === "proxy-authenticate" || res.getHeader(name) === undefined) {
        res.appendHeader(name, value);
      }
    });
    if (compress && !negotiates) varyAsCompressorWould(req, res);
    if (!response.body || method === "HEAD") {
      response.body?.cancel().catch(() => {});
      res.end();
      return;
    }
    // The body's chunks as they are, without gathering them into a copy. An answer of one chunk
    // (every answer built from a string or bytes) is sent with its length (the compressor drops
    // it when it compresses); a longer stream goes on chunk by chunk, as Next would send it.
    const reader = response.body.getReader();
    const first = await reader.read();
    const second = first.done ? first : await reader.read();
    if (second.done) {
      const bytes = first.done ? EMPTY : first.value;
      res.setHeader("Content-Length", typeof bytes === "string" ? Buffer.byteLength(bytes) : bytes.byteLength);
      res.end(bytes);
      return;
    }
    for (let chunk = first; !chunk.done; chunk = chunk === first ? second : await reader.read()) {
      if (res.destroyed) return void reader.cancel().catch(() => {});
      if (!res.write(chunk.value)) await drained(res);
    }
    res.end();
  }

  /** The compressor's `Vary: Accept-Encoding`, added for a compressible answer it may transform. */
  function varyAsCompressorWould(req, res) {
    if (!compressionFilter(req, res) || NO_TRANSFORM.test(String(res.getHeader("Cache-Control") ?? ""))) return;
    const current = res.getHeader("Vary");
    const fields = current === undefined ? [] : String(current).toLowerCase().split(/\s*,\s*/);
    if (fields.includes("*") || fields.includes("accept-encoding")) return;
    res.setHeader("Vary", current === undefined ? "Accept-Encoding" : `${current}, Accept-Encoding`);
  }

  /** The path and query as Next hands them to a route: the query re-serialised (server-utils normalizeCdnUrl). */
  function normalizedTarget(url, q) {
    if (q === -1 || PLAIN_QUERY.test(url.slice(q + 1)) && !hasRepeatedKey(url.slice(q + 1))) return url;
    const parsed = parseReqUrl(url);
    delete parsed.search;
    return formatUrl(parsed);
  }

  return { handle, routes: entries.size };
}
