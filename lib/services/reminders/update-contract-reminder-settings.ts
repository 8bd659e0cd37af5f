import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertCanWrite } from "@/lib/domain/access";
import type { TContractReminderSettings, TUpdateContractReminderSettingsRequest } from "@/lib/schemas";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { contractReminderSettings } from "@/lib/services/reminders/contract-reminder-settings";
import { reminderColumnsOf } from "@/lib/services/reminders/reminder-columns-of";
import { REMINDER_SELECT, reminderSettingsOf } from "@/lib/services/reminders/reminder-settings-row";

/**
 * Changes the contract's own settings (null: back to the workspace's): 404, 403, then 409 once the
 * contract has ended. Audited as `contract.reminder_settings_update`; under the contract's lock, so
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
    if (contract.state !== "draft" && contract.state !== "pending") {
      throw new DomainError("contract_not_pending", `Contract ${contract.id} is ${contract.state}; its reminders can no longer change.`);
    }
    const row = await tx.contract.update({ where: { id: contractId }, data: reminderColumnsOf(request), select: { ...REMINDER_SELECT, workspaceId: true } });
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
