// The webhook dispatcher (lib/services/webhooks/dispatch-webhooks.ts) against a real receiver on
// 127.0.0.1 that verifies every signature with the Standard Webhooks library.
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";

import { buildWebhookEventData } from "@/lib/api/webhook-event-data";
import type { PrismaClient } from "@/lib/db";
import { createPrismaClient } from "@/lib/db/pool";
import { createContract, createTemplate, createWorkspace } from "@/lib/db/seed/factories";
import type { Actor } from "@/lib/domain/actor";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { createWebhook } from "@/lib/services/webhooks/create-webhook";
import { claimDueWebhookDeliveries } from "@/lib/services/webhooks/claim-due-webhook-deliveries";
import { deliverDueWebhooks } from "@/lib/services/webhooks/deliver-due-webhooks";
import { dispatchWebhooks } from "@/lib/services/webhooks/dispatch-webhooks";
import { WebhookAttempts } from "@/lib/services/webhooks/webhook-attempts";
import { fanOutWebhookEvents, SETTLE_MS } from "@/lib/services/webhooks/fan-out-webhook-events";
import { type TWebhookDispatcherOptions } from "@/lib/services/webhooks/webhook-dispatcher-options";
import { startWebhookReceiver, type TReceiver } from "@/test/helpers/webhook-receiver";
import type { TestDatabase } from "@/test/helpers/db";
import { createTestWorld } from "@/test/helpers/world";

const ADMIN: Actor = { kind: "anonymous_admin", isAdmin: true, via: "api_token", apiTokenId: 1 };

let db: TestDatabase;
let receiver: TReceiver;
let ws: { id: number };
let template: { id: number };

beforeAll(async () => {
  ({ db, ws, template } = await createTestWorld());
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.stop();
  await db.cleanup();
});
beforeEach(async () => {
  // Each test has its own subscriptions; earlier ones stop receiving.
  await db.prisma.webhookSubscription.deleteMany();
  receiver.received.length = 0;
  receiver.respond = () => 204;
});

const options = (client: PrismaClient = db.prisma, extra: Partial<TWebhookDispatcherOptions> = {}): TWebhookDispatcherOptions => ({
  db: client,
  buildData: buildWebhookEventData,
  allowPrivate: true,
  retryScale: 0.0001,
  ...extra,
});

async function subscribe(path: string, extra: { events?: ("contract.create" | "contract.delete" | "participant.update")[]; workspaceIds?: number[] } = {}) {
  const { webhook, secret } = await createWebhook({ db: db.prisma, actor: ADMIN, callbackUrl: receiver.url(path), linkOrigin: "http://contracts.test", allowPrivate: true, ...extra });
  receiver.secrets.set(path, secret);
  return webhook;
}

/** A contract and its contract.create audit event, as the API writes it. */
async function contractCreated(workspaceId = ws.id) {
  const contract = await createContract(db.prisma, { workspaceId, templateId: template.id });
  await db.prisma.$transaction((tx) =>
    writeAuditEvent({ db: tx, actor: ADMIN, action: "contract.create", entityType: "contract", entityId: contract.id, contractId: contract.id, after: { name: contract.name } }),
  );
  return contract;
}

async function drain(opts: TWebhookDispatcherOptions = options()) {
  for (let i = 0; i < 20; i++) {
    const { queued, attempted } = await dispatchWebhooks(opts);
    if (queued === 0 && attempted === 0) return;
  }
}

test("each event arrives signed (Webhook.verify), with the contract as GET answers it; deleted ones carry what the audit kept", async () => {
  await subscribe("/all");
  const contract = await contractCreated();
  await db.prisma.$transaction(async (tx) => {
    await tx.contract.delete({ where: { id: contract.id } });
    await writeAuditEvent({ db: tx, actor: ADMIN, action: "contract.delete", entityType: "contract", entityId: contract.id, contractId: contract.id, before: { id: contract.id, name: contract.name, state: "draft", workspace_id: ws.id } });
  });
  // The subscriptions' own audit events are not events.
  await drain();
  expect(receiver.received.map((r) => r.body.type).sort()).toEqual(["contract.create", "contract.delete"]);
  expect(receiver.received.every((r) => r.verified)).toBe(true);
  const created = receiver.received.find((r) => r.body.type === "contract.create");
  const deleted = receiver.received.find((r) => r.body.type === "contract.delete");
  expect(created!.id).toBe(created!.body.id);
  expect(created!.id).toMatch(/^evt_\d+$/);
  // Queued after the deletion: the contract is gone, so data is what the audit trail kept.
  expect(created!.body.data).toMatchObject({ id: contract.id, resource: "contract", deleted: true });
  expect(deleted!.body.data).toMatchObject({ id: contract.id, deleted: true, before: { name: contract.name, workspace_id: ws.id } });
});

test("data is the resource as GET answers it while it exists", async () => {
  await subscribe("/live");
  const contract = await contractCreated();
  await drain();
  const [event] = receiver.received;
  expect(event!.body).toMatchObject({ type: "contract.create", data: { id: contract.id, name: contract.name, state: "draft", workspace_id: ws.id, _links: { self: { href: `http://contracts.test/v1/contracts/${contract.id}` } } } });
  expect(event!.body.created_time).toMatch(/\+00:00$/);
});

test("filters: event types and workspaces", async () => {
  const other = await createWorkspace(db.prisma, {});
  await createTemplate(db.prisma, { workspaceIds: [other.id] }).then((t) => db.prisma.templateWorkspace.create({ data: { templateId: template.id, workspaceId: other.id } }).then(() => t));
  await subscribe("/only-other", { workspaceIds: [other.id] });
  await subscribe("/only-deletes", { events: ["contract.delete"] });
  const mine = await contractCreated(ws.id);
  const theirs = await contractCreated(other.id);
  await drain();
  expect(receiver.received.filter((r) => r.path === "/only-other").map((r) => (r.body.data as { id: number }).id)).toEqual([theirs.id]);
  expect(receiver.received.filter((r) => r.path === "/only-deletes")).toEqual([]);
  expect(mine.id).not.toBe(theirs.id);
});

test("a failed attempt is retried with the same webhook-id and body; the deliveries list says so", async () => {
  const sub = await subscribe("/flaky");
  let calls = 0;
  receiver.respond = () => (++calls === 1 ? 500 : 200);
  await contractCreated();
  const slower = options(db.prisma, { retryScale: 0.02 }); // first retry after ~100 ms
  await fanOutWebhookEvents(slower);
  await deliverDueWebhooks(slower);
  let [delivery] = await db.prisma.webhookDelivery.findMany({ where: { subscriptionId: sub.id } });
  expect(delivery).toMatchObject({ status: "queued", attempts: 1, lastStatusCode: 500 });
  expect((await db.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: sub.id } })).failingSince).not.toBeNull();
  await new Promise((r) => setTimeout(r, 200));
  await drain(slower);
  [delivery] = await db.prisma.webhookDelivery.findMany({ where: { subscriptionId: sub.id } });
  expect(delivery).toMatchObject({ status: "succeeded", attempts: 2, lastStatusCode: 200 });
  expect(receiver.received.map((r) => r.status)).toEqual([500, 200]);
  expect(receiver.received[0]!.id).toBe(receiver.received[1]!.id);
  expect(receiver.received.every((r) => r.verified)).toBe(true);
  expect((await db.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: sub.id } })).failingSince).toBeNull();
});

test("no redirect is followed, and a receiver that keeps failing is given up after the (scaled) 24 h, then its subscription paused after the (scaled) 3 days", async () => {
  const sub = await subscribe("/down");
  receiver.respond = () => 302;
  await contractCreated();
  const scaled = options(db.prisma, { retryScale: 0.00002 }); // 24 h → ~1.7 s, 3 days → ~5.2 s
  const deadline = Date.now() + 20_000;
  let delivery = null;
  while (Date.now() < deadline) {
    await dispatchWebhooks(scaled);
    delivery = await db.prisma.webhookDelivery.findFirst({ where: { subscriptionId: sub.id } });
    if (delivery?.status === "failed") break;
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(delivery).toMatchObject({ status: "failed", lastStatusCode: 302, lastError: "answered 302 (redirects are not followed)" });
  expect(delivery!.attempts).toBeGreaterThan(5);
  expect(receiver.received.every((r) => r.id === receiver.received[0]!.id && r.verified)).toBe(true);
  // Still failing on the next event, past the pause window: paused, with the reason.
  await db.prisma.webhookSubscription.update({ where: { id: sub.id }, data: { failingSince: new Date(Date.now() - 10_000) } });
  await contractCreated();
  await dispatchWebhooks(scaled);
  const paused = await db.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: sub.id } });
  expect(paused.active).toBe(false);
  expect(paused.pausedReason).toMatch(/Paused by the service: every delivery attempt failed since/);
});

test("a dispatcher that dies mid-delivery loses nothing: once its lease runs out another sends it", async () => {
  const sub = await subscribe("/crash");
  await contractCreated();
  await fanOutWebhookEvents(options());
  // The "killed" dispatcher: its claim committed, its POST never made, its outcome never written.
  const claimed = await claimDueWebhookDeliveries(db.prisma);
  expect(claimed).toHaveLength(1);
  // While the lease lasts nobody else takes it.
  await drain();
  expect(receiver.received).toHaveLength(0);
  // The lease runs out (as if a minute passed).
  await db.prisma.webhookDelivery.updateMany({ where: { subscriptionId: sub.id }, data: { leaseUntil: new Date(Date.now() - 1) } });
  const other = createPrismaClient(db.url, 2);
  try {
    await drain(options(other));
  } finally {
    await other.$disconnect();
  }
  expect(receiver.received).toHaveLength(1);
  expect(receiver.received[0]!.verified).toBe(true);
  expect(await db.prisma.webhookDelivery.findFirst({ where: { subscriptionId: sub.id } })).toMatchObject({ status: "succeeded", attempts: 2 });
});

test("an event committed after a later one (ids taken in one order, committed in another) is still delivered", async () => {
  await subscribe("/order");
  const late = await contractCreated();
  const early = await contractCreated();
  // Pretend the first event's transaction had not committed yet: hide it, dispatch, show it again.
  const [first] = await db.prisma.auditEvent.findMany({ where: { entityId: late.id, action: "contract.create" } });
  await db.prisma.auditEvent.update({ where: { id: first!.id }, data: { action: "hidden" } });
  await drain();
  await db.prisma.auditEvent.update({ where: { id: first!.id }, data: { action: "contract.create" } });
  await drain();
  expect(receiver.received.map((r) => (r.body.data as { id: number }).id).sort()).toEqual([late.id, early.id].sort());
  // Once events are older than the settling time the cursor moves past them.
  await db.prisma.auditEvent.updateMany({ data: { createdAt: new Date(Date.now() - SETTLE_MS - 5_000) } });
  await drain();
  const sub = await db.prisma.webhookSubscription.findFirstOrThrow({ where: { callbackUrl: receiver.url("/order") } });
  expect(sub.lastEventId).toBe((await db.prisma.auditEvent.aggregate({ _max: { id: true } }))._max.id);
});

test(
  process.env.TEST_DB === "postgres"
    ? "two dispatchers on one PostgreSQL deliver every event exactly once per attempt (PostgreSQL only)"
    : "two dispatchers on one database deliver every event exactly once per attempt (embedded database: one transaction at a time)",
  async () => {
    await subscribe("/a");
    await subscribe("/b");
    const contracts = [];
    for (let i = 0; i < 30; i++) contracts.push(await contractCreated());
    const clients = [createPrismaClient(db.url, 4), createPrismaClient(db.url, 4)];
    try {
      // Both instances, each running several rounds at once, as fast as they can.
      await Promise.all(clients.flatMap((client) => [0, 1, 2].map(() => drain(options(client, { concurrency: 4 })))));
      await drain();
    } finally {
      await Promise.all(clients.map((c) => c.$disconnect()));
    }
    for (const path of ["/a", "/b"]) {
      const ids = receiver.received.filter((r) => r.path === path).map((r) => r.id);
      expect(ids).toHaveLength(contracts.length);
      expect(new Set(ids).size).toBe(contracts.length);
    }
    expect(receiver.received.every((r) => r.verified && r.status === 204)).toBe(true);
    const deliveries = await db.prisma.webhookDelivery.findMany();
    expect(deliveries.every((d) => d.status === "succeeded" && d.attempts === 1)).toBe(true);
  },
);

test("a round with no active subscription is one plain query: the ORM is not touched; with one, the round runs", async () => {
  const touched: string[] = [];
  // Records every ORM method the dispatcher reaches for (the plain-SQL pool is under a symbol).
  const spy = new Proxy(db.prisma, {
    get(target, key, receiver) {
      if (typeof key === "string") touched.push(key);
      return Reflect.get(target, key, receiver);
    },
  });
  const paused = await subscribe("/paused");
  await db.prisma.webhookSubscription.update({ where: { id: paused.id }, data: { active: false } });
  await contractCreated();
  expect(await dispatchWebhooks(options(spy))).toEqual({ queued: 0, attempted: 0 });
  expect(touched).toEqual([]);

  await subscribe("/active");
  await contractCreated();
  const { queued } = await dispatchWebhooks(options(spy));
  expect(queued).toBeGreaterThan(0);
  expect(touched).toContain("webhookSubscription");
});


test("a run told to stop starts no further attempt, and hands back a claim it made as it was told; the next run sends each once", async () => {
  const sub = await subscribe("/stopping");
  for (let i = 0; i < 30; i++) await contractCreated();
  await fanOutWebhookEvents(options());
  let stop = false;
  receiver.respond = () => {
    stop = true;
    return 204;
  };
  const attempted = await deliverDueWebhooks(options(db.prisma, { concurrency: 2, shouldStop: () => stop }));
  // The two attempts under way finished; nothing else was sent or claimed again.
  expect(attempted).toBe(2);
  expect(receiver.received).toHaveLength(2);
  const rows = await db.prisma.webhookDelivery.findMany({ where: { subscriptionId: sub.id } });
  expect(rows.filter((d) => d.status === "succeeded")).toHaveLength(2);
  const left = rows.filter((d) => d.status === "queued");
  expect(left).toHaveLength(28);
  expect(left.every((d) => d.attempts === 0 && d.leaseUntil === null)).toBe(true);
  // Told to stop while its claim ran: the claimed rows are handed back at once, uncounted and unleased.
  let checks = 0;
  expect(await deliverDueWebhooks(options(db.prisma, { shouldStop: () => ++checks > 1 }))).toBe(0);
  expect(checks).toBe(2);
  expect(receiver.received).toHaveLength(2);
  const handedBack = await db.prisma.webhookDelivery.findMany({ where: { subscriptionId: sub.id, status: "queued" } });
  expect(handedBack).toHaveLength(28);
  expect(handedBack.every((d) => d.attempts === 0 && d.leaseUntil === null)).toBe(true);
  // Due at once, for any instance: the next run sends each of them once.
  receiver.respond = () => 204;
  await drain();
  expect(new Set(receiver.received.map((r) => r.id)).size).toBe(30);
  expect(receiver.received).toHaveLength(30);
});

test("a receiver that does not answer holds only its own attempt: the next run sends another subscription's event meanwhile, and the owner waits for it", async () => {
  const slow = await subscribe("/no-answer-yet");
  let answer!: () => void;
  const answered = new Promise<void>((r) => (answer = r));
  receiver.respond = async (r) => {
    if (r.path === "/no-answer-yet") await answered;
    return 204;
  };
  // The background job's way: one tracker for the process's attempts, a run that does not wait for them.
  const attempts = new WebhookAttempts();
  const job = options(db.prisma, { attempts });
  await contractCreated();
  expect(await dispatchWebhooks(job)).toEqual({ queued: 1, attempted: 1 });
  const held = await db.prisma.webhookDelivery.findFirstOrThrow({ where: { subscriptionId: slow.id } });
  await subscribe("/answers");
  await contractCreated();
  // The slow receiver's second delivery is sent too; the other subscription's arrives while the first is still unanswered.
  expect(await dispatchWebhooks(job)).toEqual({ queued: 2, attempted: 2 });
  await receiver.waitFor((all) => all.some((r) => r.path === "/answers"));
  expect(receiver.received.filter((r) => r.path === "/no-answer-yet")).toHaveLength(0);
  expect(await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({ status: "sending", attempts: 1 });
  answer();
  await attempts.settled();
  expect(receiver.received.filter((r) => r.path === "/no-answer-yet")).toHaveLength(2);
  expect(await db.prisma.webhookDelivery.findMany({ where: { status: { not: "succeeded" } } })).toEqual([]);
});

test("an attempt that throws (not a failed request: the sending itself) is a failed attempt, retried, never an unhandled rejection", async () => {
  const sub = await subscribe("/throws");
  await contractCreated();
  const throwing = options(db.prisma, {
    send: () => {
      throw new Error("the sender broke");
    },
  });
  await fanOutWebhookEvents(throwing);
  expect(await deliverDueWebhooks(throwing)).toBe(1);
  expect(await db.prisma.webhookDelivery.findFirstOrThrow({ where: { subscriptionId: sub.id } })).toMatchObject({
    status: "queued",
    attempts: 1,
    leaseUntil: null,
    lastError: "Error: the sender broke",
  });
});
