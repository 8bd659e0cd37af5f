// TRUSTED_PROXIES: with the proxy in front named (here: loopback, where the test connects from),
// its X-Forwarded-* headers are believed — the client address for the sign-in limit, the origin
// for links, https for HSTS. test/http/attacks.test.ts shows the same headers ignored without it.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServerOnFreshDatabase } from "@/test/helpers/fresh-server";
import { TEST_API_TOKEN } from "@/test/helpers/server";

let server: Awaited<ReturnType<typeof startServerOnFreshDatabase>>;

beforeAll(async () => {
  server = await startServerOnFreshDatabase({ TRUSTED_PROXIES: "loopback" });
}, 240_000);
afterAll(() => server?.stop());

function get(path: string, headers: Record<string, string> = {}) {
  return fetch(`${server.baseUrl}${path}`, { headers, redirect: "manual" });
}

/** `Content-Security-Policy` directives by name. */
function cspDirectives(res: Response): Map<string, string[]> {
  const value = res.headers.get("content-security-policy") ?? "";
  return new Map(
    value
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe("behind an https proxy", () => {
  test("HSTS on pages and API answers, and the page policy upgrades insecure requests", async () => {
    const https = { "x-forwarded-proto": "https" };
    const page = await get("/sign-in", https);
    expect(page.headers.get("strict-transport-security")).toMatch(/^max-age=\d{8,}; includeSubDomains$/);
    expect(cspDirectives(page).has("upgrade-insecure-requests")).toBe(true);
    const api = await get("/v1/ping", https);
    expect(api.headers.get("strict-transport-security")).toMatch(/^max-age=\d{8,}/);
  });

  test("links are built from the forwarded origin", async () => {
    const spec = await (await get("/v1/openapi.json", { "x-forwarded-proto": "https", "x-forwarded-host": "api.example.com" })).json();
    expect(spec.servers).toEqual([{ url: "https://api.example.com" }]);
    const list = await (await get("/v1/template_types?limit=1", { "x-service-api-token": TEST_API_TOKEN, "x-forwarded-host": "api.example.com" })).json();
    expect(list._links.self.href).toBe("http://api.example.com/v1/template_types?limit=1&offset=0");
  });

  test("a forwarded host that is not a plain host name is ignored", async () => {
    const spec = await (await get("/v1/openapi.json", { "x-forwarded-host": "evil.example/path?x" })).json();
    expect(spec.servers).toEqual([{ url: server.baseUrl }]);
  });
});

describe("the client address the proxy reports", () => {
  const signIn = (i: number, clientAddress: string) =>
    fetch(`${server.baseUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.baseUrl, "x-forwarded-for": clientAddress },
      body: JSON.stringify({ email: `nobody-${i}@example.com`, password: "x" }),
    });

  test("is what the sign-in limit counts: one client is stopped, another is not", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await signIn(i, "198.51.100.20")).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses[20]).toBe(429);
    expect((await signIn(99, "198.51.100.21")).status).toBe(401);
  });

  test("an address the client prepends to the chain does not give it a new one", async () => {
    // 198.51.100.20 is already over its limit; a forged first hop does not change who it is.
    expect((await signIn(100, "203.0.113.50, 198.51.100.20")).status).toBe(429);
  });
});
