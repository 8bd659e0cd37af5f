import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { assertCanWrite } from "@/lib/domain/access";
import { DomainError } from "@/lib/domain/errors";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { lockVisibleContract } from "@/lib/services/contracts/lock-visible-contract";

/**
 * `DELETE …/reminders/{id}`: 404 (contract, or a reminder not of it) → 403 (viewers) → 409
 * `contract_reminder_sent` once sent (it stays as a record). The reminder's row is locked, so the
 * job either sends it first (then 409) or finds it gone. Audited as `contract.internal_reminder_delete`.
 */
export async function deleteContractReminder({ db, actor, contractId, reminderId, requestId }: { db: PrismaClient; actor: Actor; contractId: number; reminderId: number; requestId?: string }): Promise<void> {
  await db.$transaction(async (tx: Tx) => {
    const contract = await lockVisibleContract(tx, actor, contractId);
    const [reminder] = await tx.$queryRaw<{ id: number; remind_on: Date; note: string; recipient_id: number; sent_at: Date | null }[]>`
      SELECT id, remind_on, note, recipient_id, sent_at FROM contract_reminders WHERE id = ${reminderId} AND contract_id = ${contractId} FOR UPDATE`;
    if (!reminder) throw new DomainError("resource_not_found", `Reminder ${reminderId} of contract ${contractId} does not exist.`);
    assertCanWrite(actor, contract.workspaceId);
    if (reminder.sent_at !== null) {
      throw new DomainError("contract_reminder_sent", `Reminder ${reminderId} was sent at ${reminder.sent_at.toISOString()}; it stays as a record.`);
    }
    await tx.contractReminder.delete({ where: { id: reminderId } });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "contract.internal_reminder_delete",
      entityType: "contract",
      entityId: contractId,
      contractId,
      workspaceId: contract.workspaceId,
      requestId,
      before: { reminder_id: reminder.id, date: reminder.remind_on.toISOString().slice(0, 10), note: reminder.note, recipient_id: reminder.recipient_id },
    });
  });
}
