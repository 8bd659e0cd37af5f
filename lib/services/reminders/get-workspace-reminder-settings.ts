import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import type { TReminderSettings } from "@/lib/schemas";
import { reminderSettingsOf } from "@/lib/services/reminders/reminder-settings-row";
import { getWorkspace } from "@/lib/services/workspaces/get-workspace";

/** The workspace's reminder defaults and its time zone (404 as getWorkspace). */
export async function getWorkspaceReminderSettings({ db, actor, workspaceId }: { db: Tx; actor: Actor; workspaceId: number }): Promise<TReminderSettings> {
  const workspace = await getWorkspace({ db, actor, workspaceId });
  return { ...reminderSettingsOf(workspace), time_zone: workspace.timeZone };
}
