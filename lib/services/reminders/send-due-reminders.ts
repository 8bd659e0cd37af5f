import type { PrismaClient, Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { takeDue } from "@/lib/services/jobs/take-due";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { enqueueEmail } from "@/lib/services/mail/enqueue-email";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { expiryWarningMail, reminderMail } from "@/lib/services/mail/messages";

export interface TReminderRun {
  reminders: number;
  warnings: number;
}

interface TDueRow {
  id: number;
  name: string;
  email: string;
  contractId: number;
  contractName: string;
  workspaceId: number;
  expiresAt: Date | null;
  linkOrigin: string;
  remindersSent: number;
  warning: boolean;
}

/**
 * Queues the reminders and expiry warnings that are due (docs/mail.md "Reminders"), each exactly
 * once with several instances on one database and across crashes: the due participants are taken
 * `FOR UPDATE SKIP LOCKED` (takeDue, a batch per transaction), and the mail, its mark on the participant (`reminders_sent`,
 * `last_reminded_at`, `expiry_warned_at`) and the audit event are written in that same transaction.
 * A second instance skips the rows the first holds, and once the first commits, the marks make them
 * no longer due. The contract row is held `FOR SHARE`, so a decision, delegation or withdrawal (all
 * of which lock it) either commits first, ending the reminders, or waits for this batch.
 *
 * Due: a pending contract, an undecided signatory who has not delegated, invited by e-mail (the
 * invitation not failed), and either the next reminder's time has come (`first` days after the
 * invitation, then every `interval` days, at most `max`) or the warning's (`warning` days before the
 * signing period ends). When both are due, the warning goes alone, and the next reminder waits its
 * interval from it.
 */
export async function sendDueReminders({ db, batch = 200, stopping }: { db: PrismaClient; batch?: number; stopping?: () => boolean }): Promise<TReminderRun> {
  const run: TReminderRun = { reminders: 0, warnings: 0 };
  const rows = await takeDue<TDueRow>(db, {
    batch,
    rounds: Infinity,
    stopping,
    due: (limit) => Prisma.sql`
        SELECT q.id, q.name, q.email, c.id AS "contractId", c.name AS "contractName", c.workspace_id AS "workspaceId",
               c.signing_period_expires_at AS "expiresAt", q.reminders_sent AS "remindersSent",
               COALESCE((SELECT m.link_origin FROM email_messages m WHERE m.contract_id = c.id AND m.participant_id = q.id AND m.kind = 'invitation'
                          ORDER BY m.id DESC LIMIT 1), '') AS "linkOrigin",
               (q.expiry_warned_at IS NULL AND s.warning > 0 AND now() >= c.signing_period_expires_at - make_interval(days => s.warning)) AS warning
          FROM participants q
          JOIN parties p ON p.id = q.party_id
          JOIN contracts c ON c.id = p.contract_id
          JOIN workspaces w ON w.id = c.workspace_id
         CROSS JOIN LATERAL (SELECT COALESCE(c.reminder_first_days, w.reminder_first_days) AS first,
                                    COALESCE(c.reminder_interval_days, w.reminder_interval_days) AS every,
                                    COALESCE(c.reminder_max, w.reminder_max) AS max,
                                    COALESCE(c.expiry_warning_days, w.expiry_warning_days) AS warning) s
         WHERE c.state = 'pending'
           AND q.signatory AND q.sign_state = 'undecided' AND q.delegated_at IS NULL
           AND q.invited_at IS NOT NULL AND q.signing_nonce IS NOT NULL AND q.delivery_failed_at IS NULL
           AND q.delivery_channel IN ('email', 'email_and_sms') AND q.email <> ''
           AND ((q.reminders_sent < s.max
                 AND now() >= GREATEST(q.invited_at + make_interval(days => s.first), q.last_reminded_at + make_interval(days => s.every)))
             OR (q.expiry_warned_at IS NULL AND s.warning > 0 AND now() >= c.signing_period_expires_at - make_interval(days => s.warning)))
         ORDER BY q.id
         LIMIT ${limit}
           FOR UPDATE OF q SKIP LOCKED
           FOR SHARE OF c SKIP LOCKED`,
    async handle(tx, taken) {
      for (const row of taken) await remind(tx, row);
    },
  });
  run.warnings = rows.filter((r) => r.warning).length;
  run.reminders = rows.length - run.warnings;
  if (run.reminders + run.warnings > 0) mailQueued();
  return run;
}

async function remind(tx: Tx, row: TDueRow): Promise<void> {
  const mail =
    row.warning && row.expiresAt
      ? expiryWarningMail({ participantName: row.name, contractName: row.contractName, expiresAt: row.expiresAt })
      : reminderMail({ participantName: row.name, contractName: row.contractName, expiresAt: row.expiresAt });
  const kind = row.warning ? "expiry_warning" : "reminder";
  await enqueueEmail({ db: tx, kind, contractId: row.contractId, participantId: row.id, to: row.email, linkOrigin: row.linkOrigin, ...mail });
  const now = new Date();
  await tx.participant.update({
    where: { id: row.id },
    data: row.warning ? { expiryWarnedAt: now, lastRemindedAt: now } : { remindersSent: { increment: 1 }, lastRemindedAt: now },
  });
  await writeAuditEvent({
    db: tx,
    actor: { kind: "system" },
    action: row.warning ? "participant.expiry_warning_send" : "participant.reminder_send",
    entityType: "participant",
    entityId: row.id,
    contractId: row.contractId,
    workspaceId: row.workspaceId,
    after: row.warning ? { signing_period_expiry_time: row.expiresAt?.toISOString() ?? null } : { reminders_sent: row.remindersSent + 1 },
  });
}
