import type { Tx } from "@/lib/db";
import type { TContractReminderSettings } from "@/lib/schemas";
import { REMINDER_SELECT, reminderSettingsOf } from "@/lib/services/reminders/reminder-settings-row";

/** A contract's own reminder settings (null: the workspace's) with its workspace's defaults, as the API answers them. */
export async function contractReminderSettings(
  db: Tx,
  contract: {
    workspaceId: number;
    reminderFirstDays: number | null;
    reminderIntervalDays: number | null;
    reminderMax: number | null;
    expiryWarningDays: number | null;
    deadlineWarningDays: number | null;
  },
): Promise<TContractReminderSettings> {
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: contract.workspaceId }, select: { ...REMINDER_SELECT, timeZone: true } });
  return { ...reminderSettingsOf(contract), workspace_defaults: { ...reminderSettingsOf(workspace), time_zone: workspace.timeZone } };
}
