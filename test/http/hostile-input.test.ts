import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { PrismaClient } from "@/lib/db";
import { createPrismaClient } from "@/lib/db/pool";
import { startServerOnFreshDatabase } from "@/test/helpers/fresh-server";
import { TEST_API_TOKEN, type RunningServer } from "@/test/helpers/server";

// Issue 5, promise 1: whatever arrives, the answer is a 2xx or a 4xx in the error shape — never a
// 5xx, never a hang — and a rejected request changes nothing (a digest of the tables is compared).
// This file runs its own server, so other files' writes cannot disturb the digest.

let server: RunningServer;
let db: PrismaClient;
let ids: { contract: number; party: number; participant: number; dataField: number; template: number; templateType: number; workspace: number };

beforeAll(async () => {
  // No background jobs: sealing the demo's signed contracts and the lifecycle's turns write audit events on their own.
  server = await startServerOnFreshDatabase({ API_RATE_LIMIT_PER_MINUTE: "0", BACKGROUND_JOBS: "off" });
  db = createPrismaClient(server.databaseUrl, 2);
  const participant = await db.participant.findFirstOrThrow({ where: { party: { myParty: false, contract: { state: "draft" } } }, include: { party: { include: { contract: { include: { dataFields: true } } } } } });
  const contract = participant.party.contract;
  ids = {
    contract: contract.id,
    party: participant.partyId,
    participant: participant.id,
    dataField: contract.dataFields[0]!.id,
    template: contract.templateId,
    templateType: (await db.templateType.findFirstOrThrow()).id,
    workspace: contract.workspaceId,
  };
}, 180_000);

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

const TABLES = ["contracts", "parties", "participants", "contract_data_fields", "audit_events", "api_tokens", "users", "workspaces", "templates", "template_types"];
/**
 * Columns the app rewrites by itself, whatever the request's outcome: a token's `last_used_at` is
 * touched (at most once a minute) by any authenticated request, refused or not. They are no data a
 * rejected request could have changed, so the digest leaves them out.
 */
const SELF_MAINTAINED: Record<string, string[]> = { api_tokens: ["last_used_at"] };

async function digest(): Promise<string> {
  const parts = await Promise.all(
    TABLES.map(async (t) => {
      const row = (SELF_MAINTAINED[t] ?? []).reduce((expr, column) => `${expr} - '${column}'`, "to_jsonb(x)");
      const [result] = await db.$queryRawUnsafe<{ d: string | null }[]>(`SELECT md5(coalesce(string_agg((${row})::text, '|' ORDER BY x.id), '')) AS d FROM ${t} x`);
      return `${t}:${result?.d}`;
    }),
  );
  return parts.join(",");
}

/**
 * A fixed number of runs, every time: fast-check's `interruptAfterTimeLimit` would count a run cut
 * short as a pass, so there is none, and the test's own time-out is far above what they take.
 */
const GET_RUNS = 300;
const WRITE_RUNS = 250;

test("the digest ignores only what the app maintains by itself", async () => {
  const before = await digest();
  await db.apiToken.updateMany({ data: { lastUsedAt: new Date(Date.now() - 3_600_000) } });
  expect(await digest()).toBe(before);
  const token = await db.apiToken.findFirstOrThrow();
  await db.apiToken.update({ where: { id: token.id }, data: { name: `${token.name} (renamed)` } });
  expect(await digest()).not.toBe(before);
  await db.apiToken.update({ where: { id: token.id }, data: { name: token.name } });
  expect(await digest()).toBe(before);
});

const nasty = fc.constantFrom(
  "", " ", "0", "-1", "1.5", "1e3", "01", "2147483647", "2147483648", "9007199254740993", "99999999999999999999999",
  "NaN", "Infinity", "null", "true", "[]", "{}", "'; DROP TABLE contracts; --", "<img src=x onerror=alert(1)>",
  "\u0000", "a\u0000b", "\ud800", "\udfff", "💥", "‮", "%00", "../..", "all", "x".repeat(5000),
);
const idLike = fc.oneof(nasty, fc.integer().map(String), fc.string({ maxLength: 12 }), fc.constant("1"));
const scalar = fc.oneof(nasty, fc.string({ unit: "binary", maxLength: 40 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.bigInt().map((b) => Number(b)));
const jsonish = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("name", "email", "phone_number", "delivery_channel", "sign_method", "two_step_authentication_method", "signatory", "_permissions", "title", "identification_number", "id", "organizer", "parties", "workspace_id", "template_id", "__proto__", "constructor")), fc.oneof(scalar, fc.jsonValue({ maxDepth: 3 })), { maxKeys: 6 }));

function withId(template: string, pick: Record<string, string>) {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent((pick[k] ?? "1").toWellFormed()));
}

async function send(method: string, path: string, body?: string, contentType = "application/json") {
  const headers: Record<string, string> = { "x-service-api-token": TEST_API_TOKEN, "x-service-user-email": "admin@example.com" };
  if (body !== undefined) headers["content-type"] = contentType;
  const res = await fetch(`${server.baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  return { status: res.status, text };
}

function expectWellFormed(r: { status: number; text: string }, what: string) {
  expect(r.status, `${what} → ${r.status} ${r.text.slice(0, 300)}`).toBeLessThan(500);
  if (r.status >= 400) {
    const body = JSON.parse(r.text);
    expect(body.status, what).toBe(r.status);
    expect(String(body.error_code).startsWith(String(r.status)), what).toBe(true);
    expect(typeof body.request_id, what).toBe("string");
  }
}

const GET_ROUTES = [
  "/v1/workspaces", "/v1/users", "/v1/templates", "/v1/templates/{template}", "/v1/template_types", "/v1/template_types/{templateType}",
  "/v1/contracts", "/v1/contracts/{contract}", "/v1/contracts/{contract}/parties", "/v1/contracts/{contract}/parties/{party}",
  "/v1/contracts/{contract}/parties/{party}/participants/{participant}", "/v1/contracts/{contract}/data_fields",
  "/v1/contracts/{contract}/data_fields/{dataField}",
];
const PARTICIPANT = "/v1/contracts/{contract}/parties/{party}/participants/{participant}";

test("a NUL character in a query parameter, a path parameter or the sign-in: a 400, never the database's error", async () => {
  const before = await digest();
  const list = await send("GET", "/v1/contracts?q=a%00b");
  expectWellFormed(list, "q with NUL");
  expect(JSON.parse(list.text)).toMatchObject({ status: 400, error_code: 4000006 });
  const field = await send("GET", `/v1/contracts/${ids.contract}/data_fields/c::a%00b`);
  expectWellFormed(field, "custom id with NUL");
  expect(JSON.parse(field.text)).toMatchObject({ status: 400, error_code: 4000005 });
  for (const body of [{ email: "admin\u0000@example.com", password: "x" }, { email: "admin@example.com", password: "a\u0000b" }]) {
    const res = await fetch(`${server.baseUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.baseUrl },
      body: JSON.stringify(body),
    });
    expect(res.status, JSON.stringify(body)).toBe(400);
  }
  expect(await digest()).toBe(before);
});

test("GET routes: random path ids and query strings", async () => {
  const real = () => Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, String(v)]));
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...GET_ROUTES),
      fc.dictionary(fc.constantFrom("contract", "party", "participant", "dataField", "template", "templateType"), idLike, { maxKeys: 2 }),
      fc.dictionary(fc.oneof(fc.constantFrom("limit", "offset", "sort", "state", "workspace_id"), fc.string({ maxLength: 8 })), fc.oneof(nasty, fc.string({ maxLength: 20 })), { maxKeys: 4 }),
      async (route, idOverrides, query) => {
        const qs = new URLSearchParams(query).toString();
        const path = withId(route, { ...real(), ...idOverrides }) + (qs ? `?${qs}` : "");
        expectWellFormed(await send("GET", path), `GET ${path}`);
      },
    ),
    { numRuns: GET_RUNS },
  );
}, 600_000);

test("PUT participant and POST create: random bodies never break anything, rejections change nothing", async () => {
  const put = withId(PARTICIPANT, Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, String(v)])));
  const validCreate = { workspace_id: ids.workspace, template_id: ids.template, parties: [{ type: "company", name: "Fuzz AB", participants: [{ name: "Fuzz", email: "fuzz@example.org" }] }] };
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom("PUT", "POST"),
      fc.oneof(
        jsonish.map((v) => JSON.stringify(v)),
        // A valid create with one attribute replaced by something hostile.
        fc.tuple(fc.constantFrom("workspace_id", "template_id", "name", "parties"), fc.oneof(scalar, fc.jsonValue({ maxDepth: 3 }))).map(([k, v]) => JSON.stringify({ ...validCreate, [k]: v })),
        fc.tuple(fc.constantFrom("name", "email", "phone_number", "delivery_channel", "signatory", "_permissions", "country_code"), scalar).map(([k, v]) =>
          JSON.stringify({ ...validCreate, parties: [{ type: "company", name: "Fuzz AB", participants: [{ name: "Fuzz", email: "fuzz@example.org", [k]: v }] }] })),
        fc.constantFrom("", "{", "{\"a\":", "[1,2]", "\"str\"", "123", "null", "{\"name\":\"\\ud800\"}", "{\"name\":\"a\\u0000b\"}", "{\"name\": 9007199254740993123}", "[".repeat(5000), "{\"a\":".repeat(3000)),
      ),
      async (method, body) => {
        const path = method === "PUT" ? put : "/v1/contracts/create";
        const before = await digest();
        const r = await send(method, path, body);
        expectWellFormed(r, `${method} ${path} ${body.slice(0, 200)}`);
        if (r.status >= 400) expect(await digest(), `${method} ${body.slice(0, 200)} changed data`).toBe(before);
      },
    ),
    { numRuns: WRITE_RUNS },
  );
}, 600_000);

test("size and type limits: 413 for bodies over 1 MiB, 415 for other content types, 400 for deep nesting", async () => {
  const put = withId(PARTICIPANT, Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, String(v)])));
  const before = await digest();
  const big = await send("PUT", put, JSON.stringify({ name: "x".repeat(1_100_000) }));
  expect(big.status).toBe(413);
  expect(JSON.parse(big.text).status).toBe(413);
  const form = await send("PUT", put, "name=x", "application/x-www-form-urlencoded");
  expect(form.status).toBe(415);
  const deep = await send("POST", "/v1/contracts/create", `${"[".repeat(100)}${"]".repeat(100)}`);
  expect(deep.status).toBe(400);
  expect(await digest()).toBe(before);
});
