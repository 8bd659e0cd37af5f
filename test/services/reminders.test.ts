// Reminders and the expiry warning (lib/services/reminders/send-due-reminders.ts), run by every app instance.
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { createPrismaClient } from "@/lib/db/pool";
import { createContract } from "@/lib/db/seed/factories";
import { sendDueReminders } from "@/lib/services/reminders/send-due-reminders";
import { sendInvitationAgain } from "@/lib/services/signing/send-invitation-again";
import type { TestDatabase } from "@/test/helpers/db";
import { createTestWorld } from "@/test/helpers/world";
import { anonymousAdmin } from "@/test/services/read-fixtures";

let db: TestDatabase;
let ws: { id: number };
let template: { id: number };
const DAY = 86_400_000;

beforeAll(async () => {
  ({ db, ws, template } = await createTestWorld());
});
afterAll(() => db.cleanup());
// Each test sees only its own contracts' mail: the ones before are ended.
beforeEach(async () => {
  await db.prisma.contract.updateMany({ where: { state: "pending" }, data: { state: "signed" } });
});

/** A pending contract with one signatory invited `invitedDaysAgo` days ago, expiring in `expiresInDays`. */
async function invited(invitedDaysAgo: number, { expiresInDays = 30 } = {}) {
  const c = await createContract(db.prisma, { workspaceId: ws.id, templateId: template.id, state: "pending", counterparties: [{ type: "individual", participant: {} }] });
  await db.prisma.contract.update({ where: { id: c.id }, data: { signingPeriodExpiresAt: new Date(Date.now() + expiresInDays * DAY) } });
  const participant = await db.prisma.participant.findFirstOrThrow({ where: { party: { contractId: c.id, myParty: false } } });
  const invitedAt = new Date(Date.now() - invitedDaysAgo * DAY);
  await db.prisma.participant.update({ where: { id: participant.id }, data: { invitedAt, signingNonce: `nonce-${participant.id}` } });
  await db.prisma.emailMessage.create({
    data: { kind: "invitation", contractId: c.id, participantId: participant.id, toAddress: participant.email, subject: "s", body: "b", linkOrigin: "https://contracts.example.com", status: "sent", createdAt: invitedAt },
  });
  return { contractId: c.id, participantId: participant.id };
}

const mailTo = (participantId: number, kind: string) => db.prisma.emailMessage.count({ where: { participantId, kind } });

/** Moves the participant's clock back: their invitation and last reminder happened `days` earlier. */
async function age(participantId: number, days: number) {
  const p = await db.prisma.participant.findUniqueOrThrow({ where: { id: participantId } });
  await db.prisma.participant.update({
    where: { id: participantId },
    data: { invitedAt: new Date(p.invitedAt!.getTime() - days * DAY), lastRemindedAt: p.lastRemindedAt && new Date(p.lastRemindedAt.getTime() - days * DAY) },
  });
}

test("the first reminder after 5 days, then every 2, at most 5, each once, with the link of the invitation and an audit event", async () => {
  const early = await invited(4);
  const due = await invited(5.01);
  expect(await sendDueReminders({ db: db.prisma })).toEqual({ reminders: 1, warnings: 0 });
  expect(await mailTo(early.participantId, "reminder")).toBe(0);
  expect(await mailTo(due.participantId, "reminder")).toBe(1);
  const mail = await db.prisma.emailMessage.findFirstOrThrow({ where: { participantId: due.participantId, kind: "reminder" } });
  expect(mail.linkOrigin).toBe("https://contracts.example.com");
  expect(mail.body).toContain("{{signing_link}}");
  // Again at once: nothing (the next one is 2 days later).
  expect(await sendDueReminders({ db: db.prisma })).toEqual({ reminders: 0, warnings: 0 });
  await age(due.participantId, 1.9);
  expect((await sendDueReminders({ db: db.prisma })).reminders).toBe(0);
  for (let n = 2; n <= 7; n += 1) {
    await age(due.participantId, 2.01);
    await sendDueReminders({ db: db.prisma });
  }
  expect(await mailTo(due.participantId, "reminder")).toBe(5);
  const events = await db.prisma.auditEvent.count({ where: { action: "participant.reminder_send", entityId: due.participantId, via: "system" } });
  expect(events).toBe(5);
});

test("the contract's settings override the workspace's; a cap of 0 sends none", async () => {
  const own = await invited(1.5);
  await db.prisma.contract.update({ where: { id: own.contractId }, data: { reminderFirstDays: 1 } });
  const off = await invited(10);
  await db.prisma.contract.update({ where: { id: off.contractId }, data: { reminderMax: 0 } });
  await sendDueReminders({ db: db.prisma });
  expect(await mailTo(own.participantId, "reminder")).toBe(1);
  expect(await mailTo(off.participantId, "reminder")).toBe(0);
});

test("reminders stop at a decision, a delegation, the end of the contract, a withdrawal and a failed invitation", async () => {
  const signed = await invited(6);
  await db.prisma.participant.update({ where: { id: signed.participantId }, data: { signState: "signed" } });
  const delegated = await invited(6);
  await db.prisma.participant.update({ where: { id: delegated.participantId }, data: { delegatedAt: new Date() } });
  const ended = await invited(6);
  await db.prisma.contract.update({ where: { id: ended.contractId }, data: { state: "overdue" } });
  const withdrawn = await invited(6);
  await db.prisma.contract.update({ where: { id: withdrawn.contractId }, data: { state: "withdrawn" } });
  const bounced = await invited(6);
  await db.prisma.participant.update({ where: { id: bounced.participantId }, data: { deliveryStatus: "failure", deliveryFailedAt: new Date() } });
  const control = await invited(6);
  expect((await sendDueReminders({ db: db.prisma })).reminders).toBe(1);
  for (const p of [signed, delegated, ended, withdrawn, bounced]) expect(await mailTo(p.participantId, "reminder")).toBe(0);
  expect(await mailTo(control.participantId, "reminder")).toBe(1);
});

test("one warning before the signing period ends, in place of a reminder due the same day", async () => {
  const soon = await invited(1, { expiresInDays: 2.5 });
  const both = await invited(6, { expiresInDays: 1 });
  const later = await invited(1, { expiresInDays: 4 });
  expect(await sendDueReminders({ db: db.prisma })).toEqual({ reminders: 0, warnings: 2 });
  expect(await sendDueReminders({ db: db.prisma })).toEqual({ reminders: 0, warnings: 0 });
  expect(await mailTo(soon.participantId, "expiry_warning")).toBe(1);
  expect(await mailTo(both.participantId, "expiry_warning")).toBe(1);
  expect(await mailTo(both.participantId, "reminder")).toBe(0);
  expect(await mailTo(later.participantId, "expiry_warning")).toBe(0);
});

test("Send again restarts the schedule: no reminder the day after it, the first one 5 days after it, counted afresh", async () => {
  const { contractId, participantId } = await invited(6);
  expect((await sendDueReminders({ db: db.prisma })).reminders).toBe(1);
  // Long enough since the invitation and the reminder that the next one would be due.
  await age(participantId, 3);
  const partyId = (await db.prisma.participant.findUniqueOrThrow({ where: { id: participantId } })).partyId;
  await sendInvitationAgain({ db: db.prisma, actor: anonymousAdmin, contractId, partyId, participantId, linkOrigin: "https://contracts.example.com" });
  expect(await sendDueReminders({ db: db.prisma })).toEqual({ reminders: 0, warnings: 0 });
  await age(participantId, 1);
  expect(await sendDueReminders({ db: db.prisma })).toEqual({ reminders: 0, warnings: 0 });
  await age(participantId, 4.01);
  expect(await sendDueReminders({ db: db.prisma })).toEqual({ reminders: 1, warnings: 0 });
  expect(await mailTo(participantId, "reminder")).toBe(2);
  expect((await db.prisma.participant.findUniqueOrThrow({ where: { id: participantId } })).remindersSent).toBe(1);
});

test("two job runners at once (own connection pools): each due reminder exactly once (on PostgreSQL, by the row locks)", async () => {
  const due = await Promise.all(Array.from({ length: 40 }, () => invited(5.5)));
  const clients = Array.from({ length: 2 }, () => createPrismaClient(db.url, 2));
  try {
    for (let round = 0; round < 3; round += 1) {
      const runs = await Promise.all(clients.flatMap((client) => [0, 1].map(() => sendDueReminders({ db: client, batch: 7 }))));
      expect(runs.reduce((n, r) => n + r.reminders, 0)).toBe(due.length);
      const counts = await db.prisma.emailMessage.groupBy({ by: ["participantId"], where: { kind: "reminder", participantId: { in: due.map((d) => d.participantId) } }, _count: true });
      expect(counts).toHaveLength(due.length);
      expect(counts.every((c) => c._count === round + 1)).toBe(true);
      for (const d of due) await age(d.participantId, 2.01);
    }
  } finally {
    await Promise.all(clients.map((c) => c.$disconnect()));
  }
});
