import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { assertCanWrite } from "@/lib/domain/access";
import type { TReminderSettings, TUpdateReminderSettingsRequest } from "@/lib/schemas";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { reminderColumnsOf } from "@/lib/services/reminders/reminder-columns-of";
import { REMINDER_SELECT, reminderSettingsOf } from "@/lib/services/reminders/reminder-settings-row";
import { getWorkspace } from "@/lib/services/workspaces/get-workspace";

/** Changes the given defaults (404, then 403 for a viewer), audited as `workspace.reminder_settings_update`. */
export async function updateWorkspaceReminderSettings(options: {
  db: PrismaClient;
  actor: Actor;
  workspaceId: number;
  request: TUpdateReminderSettingsRequest;
  requestId?: string;
}): Promise<TReminderSettings> {
  const { actor, workspaceId, request } = options;
  return options.db.$transaction(async (tx: Tx) => {
    const before = reminderSettingsOf(await getWorkspace({ db: tx, actor, workspaceId }));
    assertCanWrite(actor, workspaceId);
    const row = await tx.workspace.update({ where: { id: workspaceId }, data: reminderColumnsOf(request), select: REMINDER_SELECT });
    const after = reminderSettingsOf(row);
    await writeAuditEvent({ db: tx, actor, action: "workspace.reminder_settings_update", entityType: "workspace", entityId: workspaceId, workspaceId, requestId: options.requestId, before, after });
    return after;
  });
}
