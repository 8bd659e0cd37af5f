import { afterAll, beforeAll, expect, test } from "vitest";
import type { PrismaClient } from "@/lib/db";
import { createPrismaClient } from "@/lib/db/pool";
import { applyMigrations } from "@/lib/db/schema-engine";
import { seedDemoData } from "@/lib/seed/demo";
import { OwnCluster } from "@/test/fault/own-cluster";
import { TEST_ADMIN_PASSWORD, TEST_API_TOKEN, freePort, startServer, type RunningServer } from "@/test/helpers/server";

// Issue 5, promise 4: a database crash in the middle of a stream of creates leaves every contract
// whole (contract, parties, participants, data fields, audit event) or absent; the app answers 503
// in the error shape while the database is away and recovers by itself when it returns.

let cluster: OwnCluster;
let server: RunningServer;
let db: PrismaClient;
let workspaceId: number;
let templateId: number;
let templateFieldCount: number;

beforeAll(async () => {
  cluster = new OwnCluster(await freePort());
  cluster.init();
  cluster.start();
  await applyMigrations(cluster.url);
  db = createPrismaClient(cluster.url, 2);
  await seedDemoData(db, { apiToken: TEST_API_TOKEN, adminPassword: TEST_ADMIN_PASSWORD });
  const template = await db.template.findFirstOrThrow({ where: { name: "Mutual NDA" }, include: { workspaces: true, dataFields: true } });
  templateId = template.id;
  workspaceId = template.workspaces[0]!.workspaceId;
  templateFieldCount = template.dataFields.length;
  server = await startServer({ databaseUrl: cluster.url });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await db?.$disconnect().catch(() => undefined);
  cluster?.destroy();
});

const headers = { "content-type": "application/json", "x-service-api-token": TEST_API_TOKEN, "x-service-user-email": "admin@example.com" };

async function createOne(name: string) {
  const body = {
    workspace_id: workspaceId,
    template_id: templateId,
    name,
    parties: [
      { type: "company", name: "Fault Tolerance AB", country_code: "se", participants: [
        { name: "Ann Fault", email: "ann@example.org", signatory: true, _permissions: { "contract:update": true } },
        { name: "Bo Fault", email: "bo@example.org" },
      ] },
      { type: "individual", participant: { name: "Cy Fault", email: "cy@example.org", identification_number: "19800101-1234" } },
    ],
  };
  try {
    const res = await fetch(`${server.baseUrl}/v1/contracts/create`, { method: "POST", headers, body: JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
    const json = await res.json().catch(() => null);
    return { name, status: res.status, json, retryAfter: res.headers.get("retry-after") };
  } catch (error) {
    return { name, status: 0, json: null, retryAfter: null, error: String(error) };
  }
}

test("a crash mid-stream leaves every create whole or absent, answers 503 meanwhile, and recovers", async () => {
  const results: Awaited<ReturnType<typeof createOne>>[] = [];
  let n = 0;
  let phase: "before" | "down" | "after" = "before";
  // Bounded in time, not in count: while the database is away the 503s come back in milliseconds.
  const streamEnds = Date.now() + 120_000;
  const worker = async () => {
    while (phase !== "after" || results.filter((r) => r.status === 200 && r.name.startsWith("after")).length < 20) {
      if (Date.now() > streamEnds) break;
      n += 1;
      const result = await createOne(`${phase}-${n}`);
      results.push(result);
      if (result.status !== 200) await new Promise((r) => setTimeout(r, 50)); // as a client backing off would
    }
  };
  const workers = Array.from({ length: 4 }, worker);

  // Crash once the stream is flowing (a few creates done), whatever the machine's speed.
  const flowing = Date.now() + 30_000;
  while (results.filter((r) => r.status === 200).length < 5 && Date.now() < flowing) await new Promise((r) => setTimeout(r, 50));
  cluster.stop("immediate");
  phase = "down";

  // While the database is away: 503 in the error shape, with Retry-After.
  const deadline = Date.now() + 15_000;
  let ping: Response | undefined;
  while (Date.now() < deadline) {
    ping = await fetch(`${server.baseUrl}/v1/ping`);
    if (ping.status === 503) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(ping?.status).toBe(503);
  const downCreate = await createOne("probe-while-down");
  results.push(downCreate);
  expect(downCreate.status).toBe(503);
  expect(downCreate.json).toMatchObject({ status: 503, error_code: expect.any(Number), request_id: expect.any(String) });
  expect(downCreate.retryAfter).toBeTruthy();

  await new Promise((r) => setTimeout(r, 1_500));
  cluster.start();
  phase = "after";
  await Promise.all(workers);

  // Recovered by itself: readiness and creates work again.
  expect((await fetch(`${server.baseUrl}/v1/ping`)).status).toBe(200);
  expect(results.filter((r) => r.name.startsWith("after") && r.status === 200).length).toBeGreaterThanOrEqual(20);
  expect(results.filter((r) => r.name.startsWith("before") && r.status === 200).length).toBeGreaterThan(0);
  // Every request was answered (no reset connection, no 20 s time-out: status 0 is the client's own
  // error), and never with a 500 or another status: success, or "database unavailable".
  expect(results.filter((r) => r.status === 0).map((r) => `${r.name}: ${"error" in r ? r.error : ""}`), "requests the server never answered").toEqual([]);
  expect(new Set(results.map((r) => r.status).filter((s) => s !== 200 && s !== 503))).toEqual(new Set());

  await db.$disconnect();
  db = createPrismaClient(cluster.url, 2);
  for (const r of results) {
    const contracts = await db.contract.findMany({
      where: { name: r.name },
      include: { parties: { include: { participants: true } }, dataFields: true },
    });
    expect(contracts.length, r.name).toBeLessThanOrEqual(1);
    if (r.status === 200) {
      expect(contracts.length, `${r.name} answered 200`).toBe(1);
      expect(contracts[0]!.id).toBe(r.json.id);
    }
    const c = contracts[0];
    if (!c) continue;
    // Whole: the owner side with the organizer, both counterparties, all participants, data fields, audit.
    expect(c.parties.length, r.name).toBe(3);
    expect(c.parties.flatMap((p) => p.participants).length, r.name).toBe(4);
    expect(c.dataFields.length, r.name).toBe(templateFieldCount);
    expect(await db.auditEvent.count({ where: { contractId: c.id, action: "contract.create" } }), r.name).toBe(1);
  }
}, 240_000);
