import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { assertAdmin, assertCanWrite } from "@/lib/domain/access";
import { now as clockNow } from "@/lib/clock";
import { instantAt } from "@/lib/domain/calendar";
import type { TReminderSettings, TUpdateReminderSettingsRequest } from "@/lib/schemas";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { WARNING_HOUR } from "@/lib/services/lifecycle/pending-warnings";
import { changesNothing } from "@/lib/services/reminders/changes-nothing";
import { reminderColumnsOf } from "@/lib/services/reminders/reminder-columns-of";
import { REMINDER_SELECT, reminderSettingsOf } from "@/lib/services/reminders/reminder-settings-row";
import { getWorkspace } from "@/lib/services/workspaces/get-workspace";

/**
 * Changes the given defaults (404, then 403 for a viewer; `time_zone` 403 `admin_only` for an
 * editor); the same values write nothing, others are audited as `workspace.reminder_settings_update`. A new time zone or warning days move
 * the workspace's signed contracts' dates and warnings: each running one is due to the lifecycle
 * job at once (which stores its lifecycle as the new zone reads it), and unsent internal reminders
 * are rescheduled to 08:00 of their day in the new zone, in this transaction.
 */
export async function updateWorkspaceReminderSettings(options: {
  db: PrismaClient;
  actor: Actor;
  workspaceId: number;
  request: TUpdateReminderSettingsRequest;
  requestId?: string;
}): Promise<TReminderSettings> {
  const { actor, workspaceId, request } = options;
  return options.db.$transaction(async (tx: Tx) => {
    const workspace = await getWorkspace({ db: tx, actor, workspaceId });
    const before = { ...reminderSettingsOf(workspace), time_zone: workspace.timeZone };
    assertCanWrite(actor, workspaceId);
    if (request.time_zone !== undefined && request.time_zone !== workspace.timeZone) assertAdmin(actor);
    const columns = { ...reminderColumnsOf(request), ...(request.time_zone !== undefined ? { timeZone: request.time_zone } : {}) };
    // The same values (or none) write nothing: no audit event, the same `updated_time`.
    if (changesNothing(columns, workspace)) return before;
    const row = await tx.workspace.update({
      where: { id: workspaceId },
      data: columns,
      select: { ...REMINDER_SELECT, timeZone: true },
    });
    const after = { ...reminderSettingsOf(row), time_zone: row.timeZone };
    if (after.time_zone !== before.time_zone || after.deadline_warning_days !== before.deadline_warning_days) {
      await tx.$executeRaw`
        UPDATE contracts SET lifecycle_due_at = ${clockNow()}::timestamptz
         WHERE workspace_id = ${workspaceId} AND state = 'signed' AND signed_on IS NOT NULL AND lifecycle_state IS DISTINCT FROM 'ended'`;
    }
    if (after.time_zone !== before.time_zone) {
      // By instantAt, as creating a reminder does: PostgreSQL's zone table is not the runtime's
      // (an alias it dropped is a 22023; an offset it reads the other way round).
      const unsent = await tx.$queryRaw<{ id: number; remind_on: Date }[]>`
        SELECT r.id, r.remind_on FROM contract_reminders r JOIN contracts c ON c.id = r.contract_id
         WHERE c.workspace_id = ${workspaceId} AND r.sent_at IS NULL`;
      if (unsent.length > 0) {
        const dueAt = unsent.map((r) => instantAt(r.remind_on.toISOString().slice(0, 10), WARNING_HOUR, row.timeZone).toISOString());
        await tx.$executeRaw`
          UPDATE contract_reminders r SET due_at = v.due_at
            FROM unnest(${unsent.map((r) => r.id)}::int[], ${dueAt}::timestamptz[]) AS v(id, due_at) WHERE r.id = v.id`;
      }
    }
    await writeAuditEvent({ db: tx, actor, action: "workspace.reminder_settings_update", entityType: "workspace", entityId: workspaceId, workspaceId, requestId: options.requestId, before, after });
    return after;
  });
}
