import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PrismaClient } from "@/lib/db";
import { createPrismaClient } from "@/lib/db/pool";
import { createContract, createUser } from "@/lib/db/seed/factories";
import { ENDPOINTS, type TEndpoint } from "@/lib/schemas/endpoints";
import { startServerOnFreshDatabase } from "@/test/helpers/fresh-server";
import { startServer, TEST_API_TOKEN, type RunningServer } from "@/test/helpers/server";

// API_LANE=off answers every endpoint as the lane does: for every endpoint ENDPOINTS declares, the
// same requests to two servers of one build on one database, one with the lane and one without,
// give the same status, the same body bytes and the same headers. Left out: Date, and the framing
// (Next streams its answer chunked, the lane sends it with its length). Both get the same
// X-Request-Id, so the answers that carry it match too. Requests that change data are sent only
// where they fail before writing (bad id, missing credentials, bad body), so both see one state;
// test/http/api-lane.test.ts holds a successful write through each.

let lane: RunningServer;
let next: RunningServer;
let db: PrismaClient;
/** A real value for each path parameter, so reads find something. */
const ids: Record<string, string> = {};
const admin = { "x-service-api-token": TEST_API_TOKEN, "x-service-user-email": "admin@example.com" };
const FRAMING = new Set(["date", "keep-alive", "connection", "transfer-encoding", "content-length"]);

beforeAll(async () => {
  next = await startServerOnFreshDatabase({ API_LANE: "off" });
  lane = await startServer({ databaseUrl: next.databaseUrl });
  db = createPrismaClient(next.databaseUrl, 1);
  const sales = await db.workspace.findFirstOrThrow({ where: { name: "Sales" } });
  const template = await db.template.findFirstOrThrow({ where: { name: "Mutual NDA" } });
  const owner = await createUser(db, { memberships: [{ workspaceId: sales.id, role: "editor" }] });
  const contract = await createContract(db, {
    workspaceId: sales.id,
    templateId: template.id,
    name: "Parity – “lane” \\ 🚀",
    owner,
    counterparties: [{ type: "company", name: "Buyer AB", participants: [{ name: "Ann" }] }],
  });
  const party = await db.party.findFirstOrThrow({ where: { contractId: contract.id, myParty: false }, include: { participants: true } });
  const dataField = await db.contractDataField.findFirst({ where: { contractId: contract.id } });
  // A webhook of its own (created through one server; both then read the same state). Nothing
  // listens on port 9, and no event is sent to it: this contract is never published, and the demo's
  // signed contracts are sealed (their `contract.seal` events written) before it exists.
  for (let i = 0; i < 600 && (await db.contractSeal.count({ where: { status: { not: "done" } } })) > 0; i++) await new Promise((r) => setTimeout(r, 200));
  expect(await db.contractSeal.count({ where: { status: { not: "done" } } })).toBe(0);
  const created = await fetch(`${next.baseUrl}/v1/webhooks`, {
    method: "POST",
    headers: { ...admin, "content-type": "application/json" },
    body: JSON.stringify({ callback_url: "http://127.0.0.1:9/parity" }),
  });
  expect(created.status, await created.clone().text()).toBe(200);
  const webhook = (await created.json()) as { id: number };
  const codes = (await (await fetch(`${next.baseUrl}/v1/error_codes`)).json()) as { data: { error_code: number }[] };
  const delivery = await db.webhookDelivery.findFirst();
  const templateType = await db.templateType.findFirstOrThrow();
  Object.assign(ids, {
    contract_id: String(contract.id),
    party_id: String(party.id),
    participant_id: String(party.participants[0]!.id),
    data_field_id: String(dataField?.id ?? 999999),
    workspace_id: String(sales.id),
    template_id: String(template.id),
    template_type_id: String(templateType.id),
    webhook_id: String(webhook?.id ?? 999999),
    file_id: String((await db.contractFile.findFirstOrThrow({ where: { contractId: contract.id, type: "contract" } })).id),
    delivery_id: String(delivery?.id ?? 999999),
    code: String(codes.data[0]!.error_code),
  });
}, 240_000);

afterAll(async () => {
  await db?.$disconnect();
  await lane?.stop();
  await next?.stop();
});

const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d(?::|%3A)\d\d(?::|%3A)\d\d(?:\.\d+)?(?:Z|(?:\+|%2B|-)\d\d(?::|%3A)\d\d)/g;

type Sent = { method: string; headers?: Record<string, string>; body?: string };

async function ask(server: RunningServer, path: string, sent: Sent, requestId: string) {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method: sent.method,
    headers: { "x-request-id": requestId, ...sent.headers },
    ...(sent.body === undefined ? {} : { body: sent.body }),
    redirect: "manual",
  });
  // Links carry the server's own host and port; the rest must be the same bytes.
  const host = new URL(server.baseUrl).host;
  const headers = [...res.headers].filter(([name]) => !FRAMING.has(name)).map(([name, value]) => `${name}: ${value.replaceAll(host, "SERVER")}`);
  let body = Buffer.from(await res.arrayBuffer()).toString("latin1").replaceAll(host, "SERVER");
  // The dashboard counts as of the moment it is asked, and says when (its windows follow from it).
  if (path.startsWith("/v1/dashboard")) body = body.replace(ISO_TIME, "AS_OF");
  return { status: res.status, headers, body };
}

/** The same request to both; returns the status both gave. */
async function expectSame(path: string, sent: Sent): Promise<number> {
  const id = `parity-${Math.random().toString(36).slice(2)}`;
  const fromNext = await ask(next, path, sent, id);
  const fromLane = await ask(lane, path, sent, id);
  expect(fromLane, `${sent.method} ${path}`).toEqual(fromNext);
  return fromLane.status;
}

const endpoints: readonly TEndpoint[] = Object.values(ENDPOINTS);
const fill = (path: string, value?: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => value ?? ids[name] ?? "1");
const writes = (method: string) => method !== "GET";

describe("API_LANE=off answers every endpoint as the lane does", () => {
  test("the lane is on in one and off in the other", () => {
    expect(lane.logs()).not.toContain("api lane off");
    expect(next.logs()).not.toContain("api lane");
  });

  test.each(endpoints.map((e) => [e.id, e] as const))("%s", async (_, endpoint) => {
    const path = fill(endpoint.path);
    const json = { ...admin, "content-type": "application/json" };
    // Success, for what does not write.
    if (!writes(endpoint.method)) {
      // A signing link needs a published contract: a draft's is a 409, compared all the same.
      const status = await expectSame(path, { method: endpoint.method, headers: admin });
      expect(status, "a read succeeds").toBe(endpoint.id === "getSigningLink" ? 409 : 200);
      await expectSame(path, { method: "HEAD", headers: admin });
    }
    await expectSame(path, { method: "OPTIONS", headers: admin });
    // A method the path does not serve.
    const unserved = ["GET", "POST", "PUT", "DELETE", "PATCH"].find((m) => !endpoints.some((e) => e.path === endpoint.path && e.method === m))!;
    expect(await expectSame(path, { method: unserved, headers: json, body: unserved === "GET" ? undefined : "{}" })).toBe(405);
    // Without credentials, and with a token that is not one.
    if (endpoint.auth !== false) {
      expect(await expectSame(path, { method: endpoint.method })).toBe(401);
      expect(await expectSame(path, { method: endpoint.method, headers: { "x-service-api-token": "not-a-token-0123456789" } })).toBe(401);
    }
    // A bad id and an unknown one, in every path parameter.
    if (endpoint.path.includes("{")) {
      const body = writes(endpoint.method) && endpoint.method !== "DELETE" ? "{}" : undefined;
      expect(await expectSame(fill(endpoint.path, "abc"), { method: endpoint.method, headers: json, body })).toBeGreaterThanOrEqual(400);
      expect(await expectSame(fill(endpoint.path, "2147483647"), { method: endpoint.method, headers: json, body })).toBeGreaterThanOrEqual(400);
    }
    // Bodies refused before anything is written.
    if ("body" in endpoint && endpoint.body) {
      // A multipart endpoint refuses a JSON body as the wrong media type.
      expect(await expectSame(path, { method: endpoint.method, headers: json, body: "{" })).toBe(endpoint.multipart ? 415 : 400);
      expect(await expectSame(path, { method: endpoint.method, headers: { ...admin, "content-type": "text/plain" }, body: "{}" })).toBeGreaterThanOrEqual(400);
    }
  });

  test("paths no endpoint has", async () => {
    for (const path of ["/v1/no/such/route", "/v1/contracts/1/nothing", "/v1/CONTRACTS"]) {
      expect(await expectSame(path, { method: "GET", headers: admin })).toBe(404);
    }
  });
});
