import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import type { TContractReminderSettings } from "@/lib/schemas";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { REMINDER_SELECT, reminderSettingsOf } from "@/lib/services/reminders/reminder-settings-row";

/** The contract's own settings (null: the workspace's) and the workspace's defaults. */
export async function getContractReminderSettings({ db, actor, contractId }: { db: Tx; actor: Actor; contractId: number }): Promise<TContractReminderSettings> {
  const contract = await findVisibleContract(db, actor, contractId);
  return contractReminderSettings(db, contract);
}

export async function contractReminderSettings(
  db: Tx,
  contract: { workspaceId: number; reminderFirstDays: number | null; reminderIntervalDays: number | null; reminderMax: number | null; expiryWarningDays: number | null },
): Promise<TContractReminderSettings> {
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: contract.workspaceId }, select: REMINDER_SELECT });
  return { ...reminderSettingsOf(contract), workspace_defaults: reminderSettingsOf(workspace) };
}
