// The API lane: the front door hands a `/v1` request straight to its App Router route handler, the
// exported `GET`/`PUT`/… of `app/v1/**/route.ts` as `next build` compiled it, instead of through
// Next's router, render server and route module (about 0.5 ms of CPU per request, more than most
// of our handlers). docs/architecture.md, "The API lane".
//
// It requires nothing from `next/dist`. What it knows of Next comes from the build's outputs:
//   - routes-manifest.json: the routes (static pages, and dynamic ones with the regex, named
//     groups and order Next built them with), next.config's headers() with their regexes, and
//     whether the build has rewrites, redirects, a base path or locales (then the lane is off);
//   - app-paths-manifest.json, app-path-routes-manifest.json: each `/v1` route's compiled file;
//   - required-server-files.json: the config (`compress: false` is required, case sensitivity);
//   - middleware-manifest.json / functions-config-manifest.json: where proxy.ts runs;
//   - the compiled route file's `routeModule.resolveHandler(method)`: the user's handler, or what
//     Next implements for HEAD, OPTIONS and a method the file does not export (405).
//
// It takes only requests it can answer trivially and leaves the rest to Next, which answers them
// the same: a path with a percent-escape or a backslash, a query other than `k=v` pairs with
// distinct plain keys (`PLAIN_QUERY`) or that names Next's internal keys, a path proxy.ts
// runs on, a path a header rule it does not interpret (a `:` in a header, a condition other than
// on a header) applies to, and every path no `/v1` route handler matches. It is off in
// development, with API_LANE=off, and when the build does something it does not interpret (above).
// test/http/api-lane*.test.ts hold its answers equal to Next's; test/server/next-pin.test.ts holds
// what it reads of Next.
import fs from "node:fs";
import { createRequire } from "node:module";
import { isIPv6 } from "node:net";
import path from "node:path";
import { readAtMost } from "./read-body.mjs";

const require = createRequire(import.meta.url);
/**
 * A query whose values a handler reads as Next gives them: `k=v` pairs, each key of characters no
 * parser decodes (so the keys Next reads itself, and a key given twice, are seen as they are), each
 * value of those, `+`, `:`, `@`, `,`, `~` and percent-escapes (a search of two words, an address, a
 * time: `q=Ingrid+Korhonen`, `q=a%40example.org`, `updated_before=2026-01-01T00:00:00Z`). Next may
 * write such a query anew (its escapes, `+` as `%20`); the values it decodes are the same, and a
 * handler reads only those (`new URL(req.url).searchParams`).
 */
const QUERY_PAIR = "[A-Za-z0-9_.*-]+=(?:[A-Za-z0-9_.*+:@,~-]|%[0-9A-Fa-f]{2})*";
const PLAIN_QUERY = new RegExp(`^${QUERY_PAIR}(?:&${QUERY_PAIR})*$`);
/** Query keys Next reads itself (route params, RSC, locales). */
const NEXT_QUERY = /nxt|_rsc|nextinternallocale/i;
/** A key given twice (Next's formatting groups a key's values, which can reorder the pairs). */
function hasRepeatedKey(query) {
  if (!query.includes("&")) return false;
  const keys = query.split("&").map((pair) => pair.slice(0, pair.indexOf("=")));
  return new Set(keys).size !== keys.length;
}
const EMPTY = new Uint8Array(0);
/** Next's Vary for every App Router path (base-server setVaryHeader). */
export const APP_VARY = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";
/**
 * A body declared at most this long is read whole before the handler runs, and the `Request` gets
 * the bytes: reading a `Request` that streams from the socket (undici's bridge from a Node stream)
 * cost ~30 µs more per request than one holding its bytes. Larger ones stream, so a client the
 * handler refuses early (a bad token) never makes the server hold more than this.
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

/** API_LANE: "on" (the default) or "off". */
export function parseApiLane(value) {
  if (value === undefined || value === "" || value === "on") return true;
  if (value === "off") return false;
  throw new Error(`API_LANE must be "on" or "off", not ${JSON.stringify(value)}.`);
}

/**
 * A `has`/`missing` condition on a header, as Next's matchHas tests it: present and non-empty,
 * and when it gives a value, the last one given matching `^value$`. Other conditions: null.
 */
export function headerCondition(item) {
  if (item.type !== "header") return null;
  const name = item.key.toLowerCase();
  const pattern = item.value ? new RegExp(`^${item.value}$`) : null;
  return (headers) => {
    const value = headers[name];
    if (!value) return false;
    return pattern === null || pattern.test(Array.isArray(value) ? value.at(-1) : value);
  };
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
  if (config.compress !== false) return { reason: "next.config compresses (the lane needs compress: false)" };

  // The `/v1` route handlers: page "/v1/contracts/[contract_id]" → its compiled entry.
  const entries = new Map();
  for (const [entry, page] of Object.entries(appPathRoutes)) {
    if (!entry.endsWith("/route") || !(page === "/v1" || page.startsWith("/v1/"))) continue;
    const file = appPaths[entry];
    // `label`: the route as the endpoint declarations write it, for /metrics (server/operations.mjs).
    const label = page.replace(/\[\[?(\.\.\.)?([^\]]+)\]\]?/g, (_, dots, key) => `{${key}${dots ? "*" : ""}}`);
    if (file) entries.set(page, { page, label, file: path.join(distDir, "server", file), module: null });
  }
  if (entries.size === 0) return { reason: "the build has no /v1 route handlers" };
  // Every route of the build, in Next's order (static before dynamic, dynamic as sorted at build):
  // the first that matches decides, and it is ours only if it is a `/v1` route handler.
  const staticPages = new Set((routesManifest.staticRoutes ?? []).map((route) => route.page));
  const dynamicRoutes = (routesManifest.dynamicRoutes ?? []).map((route) => {
    // The page's `[param]`, `[...param]` and `[[...param]]` segments, in the order of the regex's
    // named groups; a catch-all's value is its segments (the path has no escapes to decode).
    const segments = [...route.page.matchAll(/\[\[?(\.\.\.)?([^\]]+)\]\]?/g)];
    const groups = Object.keys(route.routeKeys);
    return {
      re: new RegExp(route.namedRegex),
      route: entries.get(route.page),
      keys: segments.length === groups.length ? segments.map(([, dots, key], i) => [groups[i], key, Boolean(dots)]) : null,
    };
  });
  if (dynamicRoutes.some((route) => route.route && !route.keys)) return { reason: "a /v1 route's params do not match its regex's groups" };

  // next.config's headers(), each as its regex from the manifest. A rule with a `:` in a header
  // (Next would fill in params) or a condition other than on a header is not interpreted: a path
  // it applies to goes to Next.
  const flags = config.experimental?.caseSensitiveRoutes ? "" : "i";
  const headerRules = (routesManifest.headers ?? []).map((rule) => {
    const has = (rule.has ?? []).map(headerCondition);
    const missing = (rule.missing ?? []).map(headerCondition);
    const plain = [...has, ...missing].every(Boolean) && rule.headers.every(({ key, value }) => !key.includes(":") && !value.includes(":"));
    return { re: new RegExp(rule.regex, flags), headers: rule.headers, has, missing, plain };
  });
  // Where proxy.ts runs: its matchers' regexes (with or without conditions, such a path goes to Next).
  const proxyPaths = [];
  for (const [file, key] of [["server/functions-config-manifest.json", "functions"], ["server/middleware-manifest.json", "middleware"]]) {
    let infos;
    try {
      infos = Object.values(read(file)[key] ?? {});
    } catch {
      continue; // no such manifest in this build
    }
    for (const info of infos) for (const matcher of info.matchers ?? [{ regexp: "^/.*$" }]) proxyPaths.push(new RegExp(matcher.regexp));
  }
  // The origin of the URL Next gives a route (resolve-routes' initURL), made once for each scheme.
  const name = hostname || "localhost";
  const host = port ? `${isIPv6(name) ? `[${name}]` : name}:${port}` : "localhost";
  const origins = { http: `http://${host}`, https: `https://${host}` };

  function find(pathname) {
    if (staticPages.has(pathname)) {
      const route = entries.get(pathname);
      return route ? { route, params: {} } : null;
    }
    for (const candidate of dynamicRoutes) {
      const match = candidate.re.exec(pathname);
      if (!match) continue;
      if (!candidate.route) return null;
      const params = {};
      for (const [group, key, catchAll] of candidate.keys) {
        const value = match.groups[group];
        if (value !== undefined) params[key] = catchAll ? value.split("/") : value;
      }
      return { route: candidate.route, params };
    }
    return null;
  }

  /** The headers next.config gives this request, or null when a rule the lane does not interpret applies. */
  function configHeaders(pathname, req) {
    const set = [];
    for (const rule of headerRules) {
      if (!rule.re.test(pathname)) continue;
      if (!rule.plain) return null;
      if (!rule.has.every((holds) => holds(req.headers)) || rule.missing.some((holds) => holds(req.headers))) continue;
      set.push(rule.headers);
    }
    return set;
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
      const query = url.slice(q + 1);
      if (!PLAIN_QUERY.test(query) || hasRepeatedKey(query) || NEXT_QUERY.test(query)) return false;
    }
    if (proxyPaths.some((re) => re.test(pathname))) return false;
    const found = find(pathname);
    if (!found) return false;
    const headers = configHeaders(pathname, req);
    if (!headers) return false;
    res.routeLabel = found.route.label;
    return answer(req, res, url, found, headers);
  }

  async function answer(req, res, url, { route, params }, configured) {
    const routeModule = route.module ?? (await load(route));
    // next.config's headers() first: a handler's header of the same name does not replace them.
    for (const list of configured) {
      for (const { key, value } of list) {
        if (key.toLowerCase() === "set-cookie") res.appendHeader(key, value);
        else res.setHeader(key, value);
      }
    }
    res.appendHeader("vary", APP_VARY);
    delete req.headers["next-url"];

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
    const request = new Request((secure ? origins.https : origins.http) + url, {
      method,
      headers,
      signal: aborted.signal,
      ...(body === undefined ? {} : { body, duplex: "half" }),
    });
    const response = await routeModule.resolveHandler(method)(request, { params: Promise.resolve(params) });

    // The handler's headers as Next's sendResponse merges them. Each Set-Cookie comes as its own
    // value (Headers' iteration); no `/v1` handler sets a cookie.
    res.statusCode = response.status;
    if (response.statusText) res.statusMessage = response.statusText;
    response.headers.forEach((value, name) => {
      if (name === "content-length" || name === "content-encoding" || name === "transfer-encoding" || name === "x-middleware-set-cookie") return;
      if (name === "set-cookie" || name === "vary" || name === "www-authenticate" || name === "proxy-authenticate" || res.getHeader(name) === undefined) {
        res.appendHeader(name, value);
      }
    });
    if (!response.body || method === "HEAD") {
      response.body?.cancel().catch(() => {});
      res.end();
      return;
    }
    // The body's chunks as they are, without gathering them into a copy. An answer of one chunk
    // (every answer built from a string or bytes) is sent with its length; a longer stream goes on
    // chunk by chunk, as Next would send it.
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

  /** The `/v1` route handler the lane would answer `pathname` with (its page and params), or null. */
  const match = (pathname) => {
    const found = find(pathname);
    return found && { page: found.route.page, file: found.route.file, params: found.params };
  };
  return { handle, match, routes: entries.size };
}
