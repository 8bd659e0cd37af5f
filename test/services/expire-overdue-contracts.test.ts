// The overdue check (lib/services/contracts/expire-overdue-contracts.ts), run by every app instance.
import { afterAll, beforeAll, expect, test } from "vitest";
import { createPrismaClient } from "@/lib/db/pool";
import { createContract } from "@/lib/db/seed/factories";
import { expireOverdueContracts } from "@/lib/services/contracts/expire-overdue-contracts";
import type { TestDatabase } from "@/test/helpers/db";
import { createTestWorld } from "@/test/helpers/world";

let db: TestDatabase;
let ws: { id: number };
let template: { id: number };

beforeAll(async () => {
  ({ db, ws, template } = await createTestWorld());
});
afterAll(() => db.cleanup());

async function pending(expiresInMs: number) {
  const c = await createContract(db.prisma, { workspaceId: ws.id, templateId: template.id, state: "pending" });
  await db.prisma.contract.update({ where: { id: c.id }, data: { signingPeriodExpiresAt: new Date(Date.now() + expiresInMs) } });
  return c.id;
}

test("only pending contracts past their signing period turn overdue, once, each with an audit event", async () => {
  const due = [await pending(-60_000), await pending(-1)];
  const notYet = await pending(3_600_000);
  const signed = await createContract(db.prisma, { workspaceId: ws.id, templateId: template.id, state: "signed" });
  await db.prisma.contract.update({ where: { id: signed.id }, data: { signingPeriodExpiresAt: new Date(Date.now() - 60_000) } });

  expect(await expireOverdueContracts({ db: db.prisma })).toEqual(due);
  expect(await expireOverdueContracts({ db: db.prisma })).toEqual([]);
  const states = await db.prisma.contract.findMany({ where: { id: { in: [...due, notYet, signed.id] } }, orderBy: { id: "asc" }, select: { state: true } });
  expect(states.map((s) => s.state)).toEqual(["overdue", "overdue", "pending", "signed"]);
  const events = await db.prisma.auditEvent.findMany({ where: { action: "contract.overdue" }, orderBy: { entityId: "asc" } });
  expect(events.map((e) => [e.entityId, e.via])).toEqual(due.map((id) => [id, "system"]));
});

test("several instances at once: every due contract turns overdue exactly once (on PostgreSQL, by SKIP LOCKED; embedded: one at a time)", async () => {
  const due = await Promise.all(Array.from({ length: 60 }, () => pending(-1000)));
  // Four "instances", each with its own connection pool, checking in small batches at the same time.
  const clients = Array.from({ length: 4 }, () => createPrismaClient(db.url, 2));
  try {
    const runs = await Promise.all(
      clients.flatMap((client) => [0, 1, 2].map(() => expireOverdueContracts({ db: client, batch: 7 }))),
    );
    let rest = await expireOverdueContracts({ db: db.prisma });
    while (rest.length > 0) {
      runs.push(rest);
      rest = await expireOverdueContracts({ db: db.prisma });
    }
    const changed = runs.flat().sort((a, b) => a - b);
    expect(changed).toEqual([...due].sort((a, b) => a - b));
    const events = await db.prisma.auditEvent.groupBy({ by: ["entityId"], where: { action: "contract.overdue", entityId: { in: due } }, _count: true });
    expect(events.every((e) => e._count === 1)).toBe(true);
    expect(events).toHaveLength(due.length);
  } finally {
    await Promise.all(clients.map((c) => c.$disconnect()));
  }
});
