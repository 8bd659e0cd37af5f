import type { PrismaClient, Tx } from "@/lib/db";
import { now as clockNow } from "@/lib/clock";
import type { Actor } from "@/lib/domain/actor";
import { assertCanWrite } from "@/lib/domain/access";
import { dateAt, instantAt } from "@/lib/domain/calendar";
import { DomainError, summarize, type TParameterProblems } from "@/lib/domain/errors";
import type { TCreateContractReminderRequest } from "@/lib/schemas/lifecycle";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { lockVisibleContract } from "@/lib/services/contracts/lock-visible-contract";
import { CONTRACT_REMINDER_SELECT, type TContractReminderRow } from "./contract-reminder-row";
import { WARNING_HOUR } from "./pending-warnings";

/**
 * `POST …/reminders` (docs/lifecycle.md "Warnings and reminders"): an internal reminder, e-mailed
 * to `recipient_id` (default: the caller) on `date` at 08:00 in the workspace's time zone, once.
 * Checks: 404 → 403 (viewers) → 400 naming `recipient_id` (not an active user who can see the
 * contract's workspace; the anonymous admin must name one) and `date` (before today there), both
 * at once; 409 `reminder_limit_reached` past 50 unsent or 200 in all. In any state of the contract. Audited as
 * `contract.internal_reminder_create` (a webhook event).
 */
/** The most internal reminders one contract may have waiting. */
export const MAX_UNSENT_REMINDERS = 50;
/** The most one contract may have in all, sent ones included (kept for good): the list is answered whole. */
export const MAX_REMINDERS = 200;

export async function createContractReminder({
  db,
  actor,
  contractId,
  request,
  requestId,
}: {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  request: TCreateContractReminderRequest;
  requestId?: string;
}): Promise<TContractReminderRow> {
  return db.$transaction(async (tx: Tx) => {
    const contract = await lockVisibleContract(tx, actor, contractId);
    assertCanWrite(actor, contract.workspaceId);
    const problems: TParameterProblems = {};
    const recipientId = request.recipient_id ?? (actor.kind === "user" ? actor.userId : null);
    if (recipientId === null) {
      problems.recipient_id = ["is required when calling as the anonymous admin: name the user who gets the reminder"];
    } else {
      const recipient = await tx.user.findFirst({
        where: { id: recipientId, active: true, OR: [{ isAdmin: true }, { memberships: { some: { workspaceId: contract.workspaceId } } }] },
        select: { id: true },
      });
      if (!recipient) problems.recipient_id = ["must be an active user who can see the contract's workspace"];
    }
    const now = clockNow();
    const { timeZone } = await tx.workspace.findUniqueOrThrow({ where: { id: contract.workspaceId }, select: { timeZone: true } });
    const today = dateAt(now, timeZone);
    if (request.date < today) problems.date = [`must be today (${today} in ${timeZone}) or later`];
    if (Object.keys(problems).length > 0) throw new DomainError("validation_failed", summarize(problems), { parameterProblems: problems });

    // Under the contract's lock, so two requests cannot both take the last place.
    if ((await tx.contractReminder.count({ where: { contractId, sentAt: null } })) >= MAX_UNSENT_REMINDERS) {
      throw new DomainError("reminder_limit_reached", `Contract ${contractId} already has ${MAX_UNSENT_REMINDERS} internal reminders waiting to be sent.`);
    }
    // Sent ones count too: reminders due today go within the minute, and the list would grow without end.
    if ((await tx.contractReminder.count({ where: { contractId } })) >= MAX_REMINDERS) {
      throw new DomainError("reminder_limit_reached", `Contract ${contractId} has had ${MAX_REMINDERS} internal reminders, the most one contract may have; sent ones are kept, so it can have no more.`);
    }
    const reminder = await tx.contractReminder.create({
      data: {
        contractId,
        remindOn: new Date(`${request.date}T00:00:00.000Z`),
        note: request.note,
        recipientId: recipientId!,
        createdById: actor.kind === "user" ? actor.userId : null,
        dueAt: instantAt(request.date, WARNING_HOUR, timeZone),
        createdAt: now,
      },
      select: CONTRACT_REMINDER_SELECT,
    });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "contract.internal_reminder_create",
      entityType: "contract",
      entityId: contractId,
      contractId,
      workspaceId: contract.workspaceId,
      requestId,
      after: { reminder_id: reminder.id, date: request.date, note: request.note, recipient_id: recipientId },
    });
    return reminder;
  });
}
