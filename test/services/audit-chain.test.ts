// The tamper-evident audit trail (docs/security.md "The audit chain"): every event of a contract
// chains in the one before it, whichever statement wrote it, and editing, deleting or reordering a
// past event is found. Runs on PGlite and, with TEST_DB=postgres, on PostgreSQL, where the
// concurrent writers really race.
import { afterAll, beforeAll, expect, it } from "vitest";

import { createContract } from "@/lib/db/seed/factories";
import type { Actor } from "@/lib/domain/actor";
import { checkContractChain } from "@/lib/services/audit/check-contract-chain";
import { verifyContractChain } from "@/lib/services/audit/verify-contract-chain";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import type { TestDatabase } from "@/test/helpers/db";
import { createTestWorld } from "@/test/helpers/world";

const ADMIN: Actor = { kind: "anonymous_admin", isAdmin: true, via: "api_token", apiTokenId: 1 };

let db: TestDatabase;
let ws: { id: number };
let template: { id: number };

beforeAll(async () => {
  ({ db, ws, template } = await createTestWorld());
});
afterAll(() => db.cleanup());

/** A contract with `n` events, written the way the services write them. */
async function contractWithEvents(n: number) {
  const contract = await createContract(db.prisma, { workspaceId: ws.id, templateId: template.id });
  for (let i = 0; i < n; i++) {
    await db.prisma.$transaction((tx) =>
      writeAuditEvent({ db: tx, actor: ADMIN, action: "contract.update", entityType: "contract", entityId: contract.id, contractId: contract.id, before: { name: `v${i}` }, after: { name: `v${i + 1}`, note: "åäö ø æ" } }),
    );
  }
  return contract.id;
}

it("a contract's events chain one after another and the chain holds", async () => {
  const id = await contractWithEvents(4);
  const events = await db.prisma.auditEvent.findMany({ where: { contractId: id }, orderBy: { chainSeq: "asc" } });
  expect(events.map((e) => e.chainSeq)).toEqual([1, 2, 3, 4]);
  expect(new Set(events.map((e) => e.chainHash)).size).toBe(4);
  for (const e of events) expect(e.chainHash).toMatch(/^[0-9a-f]{64}$/);
  const verdict = await verifyContractChain({ db: db.prisma, actor: ADMIN, contractId: id });
  expect(verdict).toEqual({ intact: true, events: 4, lastHash: events[3]!.chainHash, brokenAt: null });
});

it("an event written by a raw INSERT chains too (the trigger, not the caller, computes it)", async () => {
  const id = await contractWithEvents(1);
  await db.prisma.$executeRaw`INSERT INTO audit_events (action, entity_type, entity_id, contract_id, via) VALUES ('contract.overdue', 'contract', ${id}, ${id}, 'system')`;
  expect(await checkContractChain(db.prisma, id)).toMatchObject({ intact: true, events: 2 });
});

it("editing one past event's content breaks the chain at that event", async () => {
  const id = await contractWithEvents(3);
  const second = await db.prisma.auditEvent.findFirstOrThrow({ where: { contractId: id, chainSeq: 2 } });
  await db.prisma.$executeRaw`UPDATE audit_events SET after = '{"name": "forged"}' WHERE id = ${second.id}`;
  expect(await checkContractChain(db.prisma, id)).toMatchObject({ intact: false, brokenAt: { position: 2, eventId: second.id } });
});

it("editing an event and recomputing its own hash breaks the chain at the next event", async () => {
  const id = await contractWithEvents(3);
  const second = await db.prisma.auditEvent.findFirstOrThrow({ where: { contractId: id, chainSeq: 2 } });
  const first = await db.prisma.auditEvent.findFirstOrThrow({ where: { contractId: id, chainSeq: 1 } });
  await db.prisma.$executeRaw`UPDATE audit_events SET actor_name = 'Mallory' WHERE id = ${second.id}`;
  await db.prisma.$executeRaw`UPDATE audit_events a SET chain_hash = audit_event_hash(a, ${first.chainHash}) WHERE id = ${second.id}`;
  expect(await checkContractChain(db.prisma, id)).toMatchObject({ intact: false, brokenAt: { position: 3 } });
});

it("deleting a past event, or the newest one, is found", async () => {
  const id = await contractWithEvents(3);
  await db.prisma.auditEvent.deleteMany({ where: { contractId: id, chainSeq: 2 } });
  expect(await checkContractChain(db.prisma, id)).toMatchObject({ intact: false, brokenAt: { position: 2, reason: "an event before it was deleted" } });

  const other = await contractWithEvents(3);
  await db.prisma.auditEvent.deleteMany({ where: { contractId: other, chainSeq: 3 } });
  expect(await checkContractChain(db.prisma, other)).toMatchObject({ intact: false, brokenAt: { position: 3, eventId: null } });
});

it("concurrent writers on one contract never chain onto the same event", async () => {
  const id = await contractWithEvents(0);
  await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      db.prisma.$transaction((tx) => writeAuditEvent({ db: tx, actor: ADMIN, action: "contract.update", entityType: "contract", entityId: id, contractId: id, after: { i } })),
    ),
  );
  const seqs = (await db.prisma.auditEvent.findMany({ where: { contractId: id }, select: { chainSeq: true } })).map((e) => e.chainSeq).sort((a, b) => a! - b!);
  expect(seqs).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  expect(await checkContractChain(db.prisma, id)).toMatchObject({ intact: true, events: 12 });
});

it("events of no contract stay outside every chain", async () => {
  await db.prisma.$transaction((tx) => writeAuditEvent({ db: tx, actor: ADMIN, action: "webhook.create", entityType: "webhook", entityId: 1 }));
  const event = await db.prisma.auditEvent.findFirstOrThrow({ where: { action: "webhook.create" } });
  expect(event).toMatchObject({ chainSeq: null, chainHash: null });
});
