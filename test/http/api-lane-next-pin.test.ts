import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { APP_VARY, createApiLane, headerCondition } from "@/server/api-lane.mjs";

// What the API lane (server/api-lane.mjs) takes from Next, held against the installed Next itself:
// `next` is pinned exactly, and an upgrade that changes any of it turns this red, saying what to
// re-check in the lane. Reads the production build (`npm run build`; NEXT_DIST_DIR picks which).

const require = createRequire(import.meta.url);
const distDir = path.resolve(process.env.NEXT_DIST_DIR || ".next");
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(distDir, file), "utf8"));
const RECHECK = "Next changed what the API lane relies on: re-check server/api-lane.mjs against this Next, then update the pin";

type TRouteMatcher = (pathname: string) => Record<string, string | string[]> | false;
const { getRouteRegex } = require("next/dist/shared/lib/router/utils/route-regex");
const { getRouteMatcher } = require("next/dist/shared/lib/router/utils/route-matcher") as { getRouteMatcher: (re: unknown) => TRouteMatcher };
const { getSortedRoutes } = require("next/dist/shared/lib/router/utils/sorted-routes") as { getSortedRoutes: (pages: string[]) => string[] };
const { getPathMatch } = require("next/dist/shared/lib/router/utils/path-match");
const { matchHas } = require("next/dist/shared/lib/router/utils/prepare-destination");
const { modifyRouteRegex } = require("next/dist/lib/redirect-status");
const headerNames = require("next/dist/client/components/app-router-headers");

const lane = createApiLane({ distDir, hostname: "127.0.0.1", port: 3000 });
if ("reason" in lane) throw new Error(`the lane is off for this build: ${lane.reason}`);
const manifest = read("routes-manifest.json");
const v1Dynamic = (manifest.dynamicRoutes as { page: string; regex: string }[]).filter((r) => r.page.startsWith("/v1/"));

/** A path for `page`: each param a number, a catch-all two segments. */
const sample = (page: string) => page.replace(/\[\[?\.\.\.[^\]]+\]\]?/g, "a/b").replace(/\[[^\]]+\]/g, "7");

describe("the Next the API lane was written against", () => {
  test("next is installed at the exact version package.json pins", () => {
    const pinned = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> }).dependencies.next;
    expect(pinned, "next is pinned exactly, not a range").toMatch(/^\d+\.\d+\.\d+$/);
    expect(require("next/package.json").version, RECHECK).toBe(pinned);
    expect(pinned, `${RECHECK} (the lane was last checked against 16.4.6)`).toBe("16.4.6");
  });

  test("routes: the manifest's regexes, order and params are the ones Next routes with", () => {
    expect(v1Dynamic.length).toBeGreaterThan(10);
    const pages = v1Dynamic.map((r) => r.page);
    expect(pages, `${RECHECK}: dynamic routes' order`).toEqual(getSortedRoutes(pages));
    for (const route of v1Dynamic) {
      expect(new RegExp(route.regex).source, `${RECHECK}: ${route.page}'s regex`).toBe(getRouteRegex(route.page).re.source);
      for (const pathname of [sample(route.page), `${sample(route.page)}/x`, "/v1/ping"]) {
        const fromNext = getRouteMatcher(getRouteRegex(route.page))(pathname);
        const fromLane = lane.match(pathname);
        if (fromNext && fromLane?.page === route.page) expect(fromLane.params, `${RECHECK}: params of ${pathname}`).toEqual(fromNext);
        if (fromLane?.page === route.page) expect(fromNext, `${RECHECK}: ${pathname}`).toBeTruthy();
      }
    }
    expect(lane.match("/v1/contracts/7/parties/8")).toMatchObject({ page: "/v1/contracts/[contract_id]/parties/[party_id]", params: { contract_id: "7", party_id: "8" } });
    expect(lane.match("/v1/no/such/route")).toMatchObject({ params: { path: ["no", "such", "route"] } });
    expect(lane.match("/v1/ping")).toMatchObject({ page: "/v1/ping", params: {} });
  });

  test("next.config's headers(): the manifest's regexes and header conditions test as Next's matchers", () => {
    const paths = ["/v1/ping", "/v1/contracts/7", "/V1/Ping", "/", "/contracts", "/_next/static/x.js"];
    for (const rule of manifest.headers as { source: string; regex: string; internal?: boolean }[]) {
      const match = getPathMatch(rule.source, { strict: true, removeUnnamedParams: true, regexModifier: rule.internal ? undefined : modifyRouteRegex, sensitive: false });
      for (const pathname of paths) {
        expect(new RegExp(rule.regex, "i").test(pathname), `${RECHECK}: headers() ${rule.source} on ${pathname}`).toBe(Boolean(match(pathname)));
      }
    }
    const conditions = [{ type: "header", key: "X-Forwarded-Proto", value: "https(?:\\s*,.*)?" }, { type: "header", key: "x-flag" }];
    const requests = [{}, { "x-forwarded-proto": "https" }, { "x-forwarded-proto": "http" }, { "x-forwarded-proto": "https, http" }, { "x-forwarded-proto": "" }, { "x-flag": "1" }, { "x-forwarded-proto": ["http", "https"] }];
    for (const condition of conditions) {
      for (const headers of requests) {
        const fromNext = Boolean(matchHas({ headers }, {}, [condition], []));
        expect(headerCondition(condition)!(headers), `${RECHECK}: has ${JSON.stringify(condition)} on ${JSON.stringify(headers)}`).toBe(fromNext);
      }
    }
    expect(headerCondition({ type: "query", key: "x" }), "only header conditions are interpreted").toBeNull();
  });

  test("the compiled route module: resolveHandler, with HEAD, OPTIONS and 405 as Next implements them", async () => {
    // A route that answers without the database (this process has none).
    const { routeModule } = require(lane.match("/v1/openapi.json")!.file);
    await routeModule.ensureUserland?.();
    expect(typeof routeModule.resolveHandler, `${RECHECK}: routeModule.resolveHandler`).toBe("function");
    const call = (method: string) => routeModule.resolveHandler(method)(new Request("http://127.0.0.1:3000/v1/openapi.json", { method }), { params: Promise.resolve({}) });
    const options: Response = await call("OPTIONS");
    expect(options.status, `${RECHECK}: OPTIONS`).toBe(204);
    expect(options.headers.get("allow")?.split(", ").sort(), `${RECHECK}: OPTIONS' Allow`).toEqual(expect.arrayContaining(["GET", "HEAD", "OPTIONS"]));
    expect((await call("PATCH") as Response).status, `${RECHECK}: a method the route does not export`).toBe(405);
    expect((await call("HEAD") as Response).status, `${RECHECK}: HEAD from GET`).toBe(200);
  });

  test("Next's Vary for App Router paths is the lane's", () => {
    const names = [headerNames.RSC_HEADER, headerNames.NEXT_ROUTER_STATE_TREE_HEADER, headerNames.NEXT_ROUTER_PREFETCH_HEADER, headerNames.NEXT_ROUTER_SEGMENT_PREFETCH_HEADER];
    expect(APP_VARY, `${RECHECK}: base-server setVaryHeader`).toBe(names.join(", "));
    expect(read("required-server-files.json").config.compress, "next.config compress: false (the lane does not compress)").toBe(false);
  });
});
