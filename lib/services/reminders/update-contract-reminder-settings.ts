import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertCanWrite } from "@/lib/domain/access";
import { now as clockNow } from "@/lib/clock";
import type { TContractReminderSettings, TUpdateContractReminderSettingsRequest } from "@/lib/schemas";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { contractReminderSettings } from "@/lib/services/reminders/contract-reminder-settings";
import { changesNothing } from "@/lib/services/reminders/changes-nothing";
import { reminderColumnsOf } from "@/lib/services/reminders/reminder-columns-of";
import { REMINDER_SELECT, reminderSettingsOf } from "@/lib/services/reminders/reminder-settings-row";

/**
 * Changes the contract's own settings (null: back to the workspace's): 404, 403, then 409 for the
 * signing reminders once the contract is no longer a draft or pending (deadline_warning_days: any state). The same values
 * write nothing; others are audited as `contract.reminder_settings_update`; under the contract's lock, so
 * the reminders job sees the settings before or after, never half.
 */
export async function updateContractReminderSettings(options: {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  request: TUpdateContractReminderSettingsRequest;
  requestId?: string;
}): Promise<TContractReminderSettings> {
  const { actor, contractId, request } = options;
  return options.db.$transaction(async (tx: Tx) => {
    await tx.$queryRaw`SELECT id FROM contracts WHERE id = ${contractId} FOR UPDATE`;
    const contract = await findVisibleContract(tx, actor, contractId);
    assertCanWrite(actor, contract.workspaceId);
    // The signing reminders end with signing; the owner's deadline warnings (deadline_warning_days) go on after it.
    const signingOnes = Object.entries(request).some(([key, value]) => key !== "deadline_warning_days" && value !== undefined);
    if (signingOnes && contract.state !== "draft" && contract.state !== "pending") {
      throw new DomainError("contract_not_pending", `Contract ${contract.id} is ${contract.state}; its signing reminders can no longer change (deadline_warning_days can).`);
    }
    // The same values (or none) write nothing: no audit event in the contract's trail, the same `updated_time`.
    const columns = reminderColumnsOf(request);
    if (changesNothing(columns, contract)) return contractReminderSettings(tx, contract);
    const running = contract.state === "signed" && contract.signedOn !== null && contract.lifecycleState !== "ended" && request.deadline_warning_days !== undefined;
    const row = await tx.contract.update({
      where: { id: contractId },
      // A signed contract's warnings move: the lifecycle job takes it at once and stores its next turn.
      data: { ...columns, ...(running ? { lifecycleDueAt: clockNow() } : {}) },
      select: { ...REMINDER_SELECT, workspaceId: true },
    });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "contract.reminder_settings_update",
      entityType: "contract",
      entityId: contractId,
      contractId,
      workspaceId: contract.workspaceId,
      requestId: options.requestId,
      before: reminderSettingsOf(contract),
      after: reminderSettingsOf(row),
    });
    return contractReminderSettings(tx, row);
  });
}
