// The lease every queue of work shares (lib/services/jobs/claim-due.ts, end-attempt.ts), on the
// outbox's table: what is due, what a lease keeps, and that a claim whose lease ran out and was
// claimed again elsewhere changes nothing. Two claimers at once: deliver-email, seal and
// webhook-dispatch tests (PostgreSQL).
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";

import { EMAILS } from "@/lib/services/mail/claim-due-emails";
import { claimDue } from "@/lib/services/jobs/claim-due";
import { endAttempt } from "@/lib/services/jobs/end-attempt";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());
beforeEach(async () => {
  await db.prisma.emailMessage.deleteMany();
});

const queued = (nextAttemptAt = new Date()) =>
  db.prisma.emailMessage.create({ data: { kind: "signed", toAddress: "ann@example.org", subject: "s", body: "b", status: "queued", nextAttemptAt } });
const claim = (leaseMs = 60_000) => claimDue<{ id: number; attempts: number }>(db.prisma, EMAILS, { batchSize: 10, leaseMs, order: "q.id", returning: "d.id, d.attempts" });
const row = (id: number) => db.prisma.emailMessage.findUniqueOrThrow({ where: { id } });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a claim takes due rows once, counting the attempt; rows not yet due, and claims whose lease lasts, stay", async () => {
  const due = await queued();
  await queued(new Date(Date.now() + 60_000));
  expect(await claim()).toEqual([{ id: due.id, attempts: 1 }]);
  expect(await row(due.id)).toMatchObject({ status: "sending", attempts: 1 });
  expect(await claim()).toEqual([]);
});

test("a claim whose lease ran out is taken again; the old claim can no longer end the attempt, the new one can", async () => {
  const message = await queued();
  const [old] = await claim(1);
  await pause(20);
  const [again] = await claim();
  expect(again).toEqual({ id: message.id, attempts: 2 });
  expect(await endAttempt(db.prisma, EMAILS, { key: old!.id, attempts: old!.attempts }, { status: "failed", error: "late" })).toBe(false);
  expect(await row(message.id)).toMatchObject({ status: "sending", attempts: 2, lastError: "" });
  expect(await endAttempt(db.prisma, EMAILS, { key: again!.id, attempts: again!.attempts }, { status: "queued", error: "try later", delayMs: 60_000 })).toBe(true);
  const after = await row(message.id);
  expect(after).toMatchObject({ status: "queued", attempts: 2, lastError: "try later", leaseUntil: null });
  expect(after.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
  expect(await claim()).toEqual([]);
});
