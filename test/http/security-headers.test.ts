import { beforeAll, describe, expect, test } from "vitest";
import { createUser } from "@/lib/db/seed/factories";
import { baseUrl, serverDb } from "@/test/helpers/http";
import { TEST_API_TOKEN } from "@/test/helpers/server";

// Issue 5, promise 6: security headers on every answer — pages (with a per-request script nonce
// in their Content-Security-Policy, proxy.ts), the sign-in page, the JSON API and built assets
// (next.config.mjs). That the pages still work under this policy is e2e/security.spec.ts's part.

const PASSWORD = `headers-test-${Date.now()}`;
let cookie: string;

beforeAll(async () => {
  const sales = await serverDb().workspace.findFirstOrThrow({ where: { name: "Sales" } });
  const user = await createUser(serverDb(), { password: PASSWORD, memberships: [{ workspaceId: sales.id, role: "viewer" }] });
  const res = await fetch(`${baseUrl()}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl() },
    body: JSON.stringify({ email: user.email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  cookie = res.headers.getSetCookie().map((c) => c.split(";", 1)[0]).join("; ");
});

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl()}${path}`, { headers, redirect: "manual" });
  return { res, headers: res.headers, text: await res.text() };
}

/** `Content-Security-Policy` as directive → sources. */
function csp(headers: Headers): Map<string, string[]> {
  const value = headers.get("content-security-policy");
  expect(value, "Content-Security-Policy").toBeTruthy();
  // Exactly one policy: two would both apply, and the stricter JSON one would break pages.
  expect(value!.split(",")).toHaveLength(1);
  return new Map(
    value!
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  );
}

/** The headers every answer carries, whatever it is. */
function expectCommonHeaders(headers: Headers) {
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("x-frame-options")).toBe("DENY");
  // Exactly the values docs/security.md's "Security headers" table promises.
  expect(headers.get("referrer-policy")).toBe("same-origin");
  expect(headers.get("permissions-policy")).toBe("camera=(), microphone=(), geolocation=(), payment=(), usb=()");
  expect(headers.get("cross-origin-opener-policy")).toBe("same-origin");
  expect(headers.get("cross-origin-resource-policy")).toBe("same-origin");
  expect(headers.get("x-powered-by")).toBeNull();
  // Served over plain http here: no HSTS (it is for https answers only).
  expect(headers.get("strict-transport-security")).toBeNull();
}

/** A page's policy: scripts only with this answer's nonce, never framed, no plugins, no <base>. */
function expectPagePolicy(headers: Headers, html?: string): string {
  const policy = csp(headers);
  const scripts = policy.get("script-src") ?? [];
  const nonce = scripts.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
  expect(nonce, "script nonce").toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(scripts).toContain("'strict-dynamic'");
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(scripts).not.toContain("*");
  expect(policy.get("default-src")).toEqual(["'self'"]);
  expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
  expect(policy.get("object-src")).toEqual(["'none'"]);
  expect(policy.get("base-uri")).toEqual(["'none'"]);
  expect(policy.get("form-action")).toEqual(["'self'"]);
  expect(policy.get("style-src") ?? []).not.toContain("'unsafe-inline'");
  expect(policy.has("upgrade-insecure-requests")).toBe(false);
  if (html !== undefined) {
    // Every script of the page, inline or not, carries this answer's nonce; nothing else could run.
    const tags = html.match(/<script\b[^>]*>/g) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
    expect(html).not.toMatch(/\son[a-z]+=["']/i);
  }
  return nonce!;
}

describe("pages", () => {
  test("the sign-in page", async () => {
    const { res, headers, text } = await get("/sign-in");
    expect(res.status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^text\/html/);
    expectCommonHeaders(headers);
    expectPagePolicy(headers, text);
  });

  test("a signed-in page", async () => {
    const { res, headers, text } = await get("/contracts", { cookie });
    expect(res.status).toBe(200);
    expect(text).toContain("Contracts");
    expectCommonHeaders(headers);
    expectPagePolicy(headers, text);
  });

  test("a fresh nonce for every answer", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) nonces.add(expectPagePolicy((await get("/sign-in")).headers));
    expect(nonces.size).toBe(3);
  });

  test("a redirect and the page for an unknown address", async () => {
    const home = await get("/");
    expect(home.res.status).toBeGreaterThanOrEqual(300);
    expect(home.res.status).toBeLessThan(400);
    expectCommonHeaders(home.headers);
    expectPagePolicy(home.headers);

    // Rendered per request too (not prerendered), so its scripts carry the nonce and hydrate.
    const missing = await get(`/no-such-page-${Date.now()}`);
    expect(missing.res.status).toBe(404);
    expectCommonHeaders(missing.headers);
    expectPagePolicy(missing.headers, missing.text);
  });
});

describe("the JSON API", () => {
  test("a /v1 answer: nosniff and a policy that lets nothing run", async () => {
    for (const { path, status, headers } of [
      { path: "/v1/workspaces", status: 200, headers: { "x-service-api-token": TEST_API_TOKEN } },
      { path: "/v1/workspaces", status: 401, headers: {} },
      { path: "/v1/contracts/2147483647", status: 404, headers: { "x-service-api-token": TEST_API_TOKEN } },
      { path: "/v1/no-such-route", status: 404, headers: {} },
      { path: "/v1/openapi.json", status: 200, headers: {} },
    ]) {
      const res = await get(path, headers);
      expect(res.res.status, path).toBe(status);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
      expectCommonHeaders(res.headers);
      expect(Object.fromEntries(csp(res.headers)), path).toMatchObject({ "default-src": ["'none'"], "frame-ancestors": ["'none'"], sandbox: [] });
    }
  });

  test("a download (the contracts CSV): the same one policy, sandboxed", async () => {
    const res = await get("/v1/contracts/export.csv", { "x-service-api-token": TEST_API_TOKEN });
    expect(res.res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expectCommonHeaders(res.headers);
    expect(Object.fromEntries(csp(res.headers))).toMatchObject({ "default-src": ["'none'"], sandbox: [] });
  });

  test("the web app's JSON routes (/api) too", async () => {
    for (const path of ["/api/tokens", "/api/auth/get-session"]) {
      const res = await get(path);
      expectCommonHeaders(res.headers);
      expect(csp(res.headers).get("default-src"), path).toEqual(["'none'"]);
    }
  });
});

describe("assets", () => {
  test("built scripts are nosniff", async () => {
    const page = await get("/sign-in");
    const src = page.text.match(/<script[^>]*src="(\/_next\/static\/[^"]+\.js)"/)?.[1];
    expect(src).toBeTruthy();
    const asset = await get(src!);
    expect(asset.res.status).toBe(200);
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
    expectCommonHeaders(asset.headers);
  });
});

// Behind an https proxy (HSTS, upgrade-insecure-requests): test/http/trusted-proxies.test.ts, on a
// server told to trust that proxy.
