import type { PrismaClient, Tx } from "@/lib/db";
import { now as clockNow } from "@/lib/clock";
import { Prisma } from "@/lib/generated/prisma/client";
import { takeDue } from "@/lib/services/jobs/take-due";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { enqueueEmail } from "@/lib/services/mail/enqueue-email";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { contractReminderMail } from "@/lib/services/mail/messages";

interface TDueReminder {
  id: number;
  contractId: number;
  contractName: string;
  workspaceId: number;
  remindOn: Date;
  note: string;
  recipientId: number;
  recipientName: string;
  recipientEmail: string;
  /** The recipient is active and may still see the contract's workspace. */
  mayRead: boolean;
  setBy: string | null;
}

const MAX_ROUNDS = 100;

/**
 * Sends the internal reminders that are due (docs/lifecycle.md "Warnings and reminders"), each
 * exactly once across instances and crashes: the due rows (`sent_at` null, `due_at` ≤ now()) are
 * taken `FOR UPDATE SKIP LOCKED` (takeDue, a batch per transaction), and each one's mail, its
 * `sent_at` and its audit event (`contract.internal_reminder_send`) are written in that transaction. A recipient who is no longer
 * active, or can no longer see the contract, gets nothing; the reminder is marked all the same, and
 * its event says `delivered: false`. Answers how many were taken.
 */
export async function sendDueContractReminders({ db, batch = 100, linkOrigin = "", stopping }: { db: PrismaClient; batch?: number; linkOrigin?: string; stopping?: () => boolean }): Promise<number> {
  const now = clockNow();
  const rows = await takeDue<TDueReminder>(db, {
    batch,
    rounds: MAX_ROUNDS,
    stopping,
    due: (limit) => Prisma.sql`
        SELECT r.id, r.contract_id AS "contractId", c.name AS "contractName", c.workspace_id AS "workspaceId", r.remind_on AS "remindOn",
               r.note, r.recipient_id AS "recipientId", u.name AS "recipientName", u.email AS "recipientEmail",
               (u.active AND (u.is_admin OR EXISTS (SELECT 1 FROM workspace_memberships m WHERE m.user_id = u.id AND m.workspace_id = c.workspace_id))) AS "mayRead",
               (SELECT s.name FROM users s WHERE s.id = r.created_by_id AND s.id <> r.recipient_id) AS "setBy"
          FROM contract_reminders r
          JOIN contracts c ON c.id = r.contract_id
          JOIN users u ON u.id = r.recipient_id
         WHERE r.sent_at IS NULL AND r.due_at <= ${now}::timestamptz
         ORDER BY r.due_at, r.id
         LIMIT ${limit}
           FOR UPDATE OF r SKIP LOCKED`,
    async handle(tx: Tx, taken) {
      for (const row of taken) {
        const date = row.remindOn.toISOString().slice(0, 10);
        if (row.mayRead) {
          const mail = contractReminderMail({ recipientName: row.recipientName, contractName: row.contractName, contractId: row.contractId, note: row.note, date, setBy: row.setBy, linkOrigin });
          await enqueueEmail({ db: tx, kind: "contract_reminder", contractId: row.contractId, participantId: null, to: row.recipientEmail, linkOrigin, ...mail });
        }
        await tx.contractReminder.update({ where: { id: row.id }, data: { sentAt: now } });
        await writeAuditEvent({
          db: tx,
          actor: { kind: "system" },
          action: "contract.internal_reminder_send",
          entityType: "contract",
          entityId: row.contractId,
          contractId: row.contractId,
          workspaceId: row.workspaceId,
          after: { reminder_id: row.id, date, recipient_id: row.recipientId, delivered: row.mayRead },
        });
      }
    },
  });
  if (rows.some((row) => row.mayRead)) mailQueued();
  return rows.length;
}
