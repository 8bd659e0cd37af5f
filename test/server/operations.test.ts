import { mkdtempSync, writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import os from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { metricsAllowed, operationOf, routeLabels } from "@/server/operations.mjs";

// The rules of server/operations.mjs that need no server: who may read /metrics, and the route
// labels (bounded: a route's pattern, never the path).

/** A request from `remoteAddress` with these headers, its Host naming loopback unless they give another. */
const request = (remoteAddress: string, headers: Record<string, string> = {}) => ({ headers: { host: "localhost:3000", ...headers }, socket: { remoteAddress } }) as unknown as IncomingMessage;

describe("metricsAllowed", () => {
  test("without a token: loopback sockets whose request no proxy forwarded, asking for this machine by a loopback name", () => {
    for (const address of ["127.0.0.1", "127.8.9.1", "::1", "::ffff:127.0.0.1"]) expect(metricsAllowed(request(address), undefined), address).toBe(true);
    for (const address of ["10.0.0.1", "192.168.1.2", "::ffff:10.0.0.1", "2001:db8::1", ""]) expect(metricsAllowed(request(address), undefined), address).toBe(false);
    for (const header of ["x-forwarded-for", "x-forwarded-proto", "x-forwarded-server", "forwarded", "x-real-ip", "x-client-ip", "true-client-ip", "cf-connecting-ip", "via"]) {
      expect(metricsAllowed(request("127.0.0.1", { [header]: "x" }), undefined), header).toBe(false);
    }
    // DNS rebinding: a page whose name now points at 127.0.0.1 sends its own name.
    for (const host of ["127.0.0.1:3000", "127.0.0.1", "[::1]:3000", "LOCALHOST"]) expect(metricsAllowed(request("127.0.0.1", { host }), undefined), host).toBe(true);
    for (const host of ["evil.example", "evil.example:3000", "localhost.evil.example", "127.0.0.1.evil.example", ""]) expect(metricsAllowed(request("127.0.0.1", { host }), undefined), host).toBe(false);
  });

  test("with a token: the Bearer token, from any address; loopback alone is not enough", () => {
    const token = "metrics-token-0123456789";
    expect(metricsAllowed(request("203.0.113.9", { authorization: `Bearer ${token}` }), token)).toBe(true);
    expect(metricsAllowed(request("127.0.0.1"), token)).toBe(false);
    expect(metricsAllowed(request("127.0.0.1", { authorization: `Bearer ${token}x` }), token)).toBe(false);
    expect(metricsAllowed(request("127.0.0.1", { authorization: token }), token)).toBe(false);
  });
});

test("operationOf: the three paths, GET and HEAD only", () => {
  expect(operationOf("GET", "/metrics")).toBe("/metrics");
  expect(operationOf("HEAD", "/readyz?verbose=1")).toBe("/readyz");
  expect(operationOf("POST", "/livez")).toBe(null);
  expect(operationOf("GET", "/metrics/x")).toBe(null);
});

test("routeLabels: static, dynamic (in the build's order) and catch-all routes as patterns; the rest bounded", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "route-labels-"));
  writeFileSync(
    path.join(dir, "routes-manifest.json"),
    JSON.stringify({
      staticRoutes: [{ page: "/v1/contracts", regex: "^/v1/contracts(?:/)?$" }],
      dynamicRoutes: [
        { page: "/v1/contracts/[contract_id]", regex: "^/v1/contracts/([^/]+?)(?:/)?$" },
        { page: "/v1/[...path]", regex: "^/v1/(.+?)(?:/)?$" },
      ],
    }),
  );
  const label = routeLabels(dir);
  expect(label("/v1/contracts?limit=1")).toBe("/v1/contracts");
  expect(label("/v1/contracts/12")).toBe("/v1/contracts/{contract_id}");
  expect(label("/v1/anything/else")).toBe("/v1/{path*}");
  expect(label("/_next/static/chunks/a.js")).toBe("/_next/*");
  expect(label("/favicon.ico")).toBe("(other)");
  expect(routeLabels(path.join(dir, "missing"))("/v1/contracts")).toBe("(other)");
});
