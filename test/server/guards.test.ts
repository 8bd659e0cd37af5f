// lib/http/front-door.ts: what the HTTP server (server.mjs) checks before Next.js sees a request.
import { describe, expect, test } from "vitest";
import * as guards from "@/lib/http/front-door";
import { isValidHost } from "@/lib/http/origin";

const { isJsonRoute, isWellFormedTarget, parseTrustedProxies, resolveClient, sanitizeForwardingHeaders } = guards;

describe("request targets", () => {
  test.each(["/v1/contracts/%ff", "/v1/contracts/%", "/v1/templates/%C0%AE", "/api/tokens/%ff", "/contracts/%ff", "/x/%E0%A4%A", "/%ED%A0%80"])(
    "%s is refused",
    (target) => expect(isWellFormedTarget(target)).toBe(false),
  );
  test.each(["*", "http://evil.example/v1/ping", "//evil.example/x", "", "v1/ping"])("the non-path %s is refused", (target) =>
    expect(isWellFormedTarget(target)).toBe(false),
  );
  test.each(["/v1/contracts\\1", "/v1/contracts/1#x", "/v1/users/.", "/v1/users/..", "/v1/x/%2e%2e/y", "/v1/%2E", "/x/.%2e/v1", "/contracts/./1", "/v1/a%2F..%2Fb"])(
    "%s (a backslash, a fragment, a dot segment in any encoding) is refused",
    (target) => expect(isWellFormedTarget(target)).toBe(false),
  );
  test.each(["/", "/v1/contracts/12", "/contracts?q=%ff&sort=-name", "/sign-in?next=%2Fcontracts", "/v1/contracts/%31", "/caf%C3%A9", "/v1/contracts?q=a\\b/../c", "/v1/x.y/...", "/v1/.well"])(
    "%s is accepted",
    (target) => expect(isWellFormedTarget(target)).toBe(true),
  );
  test("a JSON route also by its decoded path (Next finds routes without dynamic segments by it)", () => {
    expect(["/v%31/ping", "/api%2Ftokens", "/%76%31/contracts?x=1", "/x%2Fv1", "/%ff/v1", "/contracts?next=/v1"].map((t) => isJsonRoute(t))).toEqual([
      true, true, true, false, false, false,
    ]);
  });
  test("/v1 and /api answer JSON, the rest are pages", () => {
    expect([isJsonRoute("/v1"), isJsonRoute("/v1/x"), isJsonRoute("/api/auth/x"), isJsonRoute("/v1x"), isJsonRoute("/contracts")]).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});

describe("Host headers", () => {
  test.each(["app.example.com", "app.example.com:8443", "127.0.0.1:3000", "[::1]:3000", "[2001:db8::1]", "localhost", "a-b.c"])("%s is a host", (host) =>
    expect(isValidHost(host)).toBe(true),
  );
  test.each(["evil.example:99999", "evil.example:0", "a b", "[::1", "[nothost]:80", "x/../../y", "%ff", "évil", "a:b:c", "", "-a.example", "a..b"])(
    "%j is refused",
    (host) => expect(isValidHost(host)).toBe(false),
  );
});

describe("TRUSTED_PROXIES", () => {
  test("takes addresses, ranges and the words loopback and private", () => {
    const list = parseTrustedProxies("10.0.0.5, 192.168.0.0/16 ,2001:db8::/32, loopback")!;
    expect(["10.0.0.5", "192.168.4.4", "127.0.0.1", "127.9.9.9"].map((a) => list.check(a, "ipv4"))).toEqual([true, true, true, true]);
    expect(["2001:db8::1", "::1"].map((a) => list.check(a, "ipv6"))).toEqual([true, true]);
    expect(list.check("10.0.0.6", "ipv4")).toBe(false);
    expect(parseTrustedProxies("private")!.check("172.20.1.1", "ipv4")).toBe(true);
  });
  test("unset or empty trusts nobody", () => {
    expect(parseTrustedProxies(undefined)).toBeNull();
    expect(parseTrustedProxies(" , ")).toBeNull();
  });
  test.each(["everyone", "10.0.0.0/33", "10.0.0.0/8/1", "300.1.1.1", "10.0.0.0/x", "::1/129"])("refuses %s, naming it", (value) => {
    expect(() => parseTrustedProxies(value)).toThrow(new RegExp(`TRUSTED_PROXIES: "${value.replace(/[./]/g, "\\$&")}"`));
  });
});

describe("who the client is", () => {
  const trusted = parseTrustedProxies("10.0.0.0/8")!;

  test("without trusted proxies, the socket's peer, whatever X-Forwarded-For says", () => {
    expect(resolveClient("::ffff:203.0.113.9", { "x-forwarded-for": "198.51.100.1" }, null)).toEqual({ address: "203.0.113.9", viaTrustedProxy: false });
  });
  test("a peer that is not a trusted proxy is the client", () => {
    expect(resolveClient("203.0.113.9", { "x-forwarded-for": "198.51.100.1" }, trusted).address).toBe("203.0.113.9");
  });
  test("behind trusted proxies, the nearest address that is not one of them", () => {
    const headers = { "x-forwarded-for": "1.1.1.1, 198.51.100.7, 10.0.0.2" };
    expect(resolveClient("10.0.0.1", headers, trusted)).toEqual({ address: "198.51.100.7", viaTrustedProxy: true });
  });
  test("what a client prepends to the chain cannot replace its own address", () => {
    expect(resolveClient("10.0.0.1", { "x-forwarded-for": "127.0.0.1, 198.51.100.7" }, trusted).address).toBe("198.51.100.7");
  });
  test("garbage in the chain stops the walk at the last readable hop", () => {
    expect(resolveClient("10.0.0.1", { "x-forwarded-for": "evil, 10.0.0.3" }, trusted).address).toBe("10.0.0.3");
    expect(resolveClient("10.0.0.1", {}, trusted).address).toBe("10.0.0.1");
  });
});

describe("forwarding headers after the front door", () => {
  test("from a client: only the resolved address and the connection's protocol remain", () => {
    const headers: Record<string, string> = {
      "x-forwarded-for": "1.2.3.4",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
      "x-forwarded-port": "443",
      forwarded: "for=1.2.3.4;host=evil.example",
      "x-real-ip": "1.2.3.4",
      host: "app.example.com",
    };
    sanitizeForwardingHeaders(headers, { address: "203.0.113.9", viaTrustedProxy: false }, false);
    expect(headers).toEqual({ "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "http", host: "app.example.com" });
  });
  test("from a trusted proxy: its protocol and host are kept, when sane", () => {
    const headers: Record<string, string> = { "x-forwarded-proto": "https", "x-forwarded-host": "contracts.example.com" };
    sanitizeForwardingHeaders(headers, { address: "198.51.100.7", viaTrustedProxy: true }, false);
    expect(headers).toEqual({ "x-forwarded-for": "198.51.100.7", "x-forwarded-proto": "https", "x-forwarded-host": "contracts.example.com" });
    const odd: Record<string, string> = { "x-forwarded-proto": "javascript", "x-forwarded-host": "evil.example/path?x" };
    sanitizeForwardingHeaders(odd, { address: "198.51.100.7", viaTrustedProxy: true }, true);
    expect(odd).toEqual({ "x-forwarded-for": "198.51.100.7", "x-forwarded-proto": "https" });
  });
});

test("redactPath keeps a signing link's token out of logs", () => {
  expect(guards.redactPath("/sign/AbC_123-xyz")).toBe("/sign/{token}");
  expect(guards.redactPath("/api/sign/AbC_123-xyz/decline")).toBe("/api/sign/{token}/decline");
  expect(guards.redactPath("/api/calendar/AbC_123-xyz.ics?x=1")).toBe("/api/calendar/{token}?x=1");
  expect(guards.redactPath("/v1/contracts/12")).toBe("/v1/contracts/12");
  expect(guards.redactPath("/contracts/designs")).toBe("/contracts/designs");
});

test("isPagesDataRoute: /_next/data/… only", () => {
  expect(["/_next/data/b/v1/contracts/5.json", "/_next/data", "/_NEXT/DATA/x", "/_next/static/x.js", "/v1/_next/data"].map((t) => guards.isPagesDataRoute(t))).toEqual([true, true, true, false, false]);
});

test("removeRouterHeaders: router headers off JSON routes, the Pages Router's prefetch off every route", () => {
  const sent = () => ({ rsc: "1", "next-router-state-tree": "x", "next-url": "/", "x-middleware-prefetch": "1", accept: "*/*" });
  const json = sent();
  guards.removeRouterHeaders(json, true);
  expect(json).toEqual({ accept: "*/*" });
  const page = sent();
  guards.removeRouterHeaders(page, false);
  expect(page).toEqual({ rsc: "1", "next-router-state-tree": "x", "next-url": "/", accept: "*/*" });
});

test("hasEmptySegment: a path with `//` anywhere, the query not counted", () => {
  expect(guards.hasEmptySegment("/v1/contracts/1/parties//participants/2")).toBe(true);
  expect(guards.hasEmptySegment("/v1//contracts")).toBe(true);
  expect(guards.hasEmptySegment("/v1/contracts/1/parties/2")).toBe(false);
  expect(guards.hasEmptySegment("/v1/contracts?next=//elsewhere")).toBe(false);
  expect(guards.hasEmptySegment("/v1/contracts#//")).toBe(false);
});

test("withoutTrailingSlash: JSON routes lose trailing slashes (query kept), pages and the root keep theirs", () => {
  expect(guards.withoutTrailingSlash("/v1/contracts/12/")).toBe("/v1/contracts/12");
  expect(guards.withoutTrailingSlash("/v1/contracts//?limit=5")).toBe("/v1/contracts?limit=5");
  expect(guards.withoutTrailingSlash("/v1/")).toBe("/v1");
  expect(guards.withoutTrailingSlash("/v1/contracts")).toBe("/v1/contracts");
  expect(guards.withoutTrailingSlash("/contracts/")).toBe("/contracts/");
  expect(guards.withoutTrailingSlash("/")).toBe("/");
});
