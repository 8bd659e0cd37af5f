import type { PrismaClient, Tx } from "@/lib/db";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { now as clockNow } from "@/lib/clock";
import { Prisma } from "@/lib/generated/prisma/client";
import { takeDue } from "@/lib/services/jobs/take-due";

/**
 * Pending contracts past `signing_period_expiry_time` become `overdue`, each with its audit event,
 * in one transaction (one batch of takeDue). Safe with several instances on one database: the due
 * rows are taken with `FOR UPDATE SKIP LOCKED`, so an instance never waits for or repeats another's
 * work, and a row a signature holds at that moment is left for the next round (it may be signed by
 * then). Returns the ids it changed. Due and overdue as of `now()` (lib/clock.ts), the time the audit events carry too.
 */
export async function expireOverdueContracts({ db, batch = 500, stopping }: { db: PrismaClient; batch?: number; stopping?: () => boolean }): Promise<number[]> {
  const now = clockNow();
  const rows = await takeDue<{ id: number; expires: Date }>(db, {
    batch,
    rounds: 1,
    stopping,
    due: (limit) => Prisma.sql`
      WITH due AS (
        SELECT id FROM contracts
        WHERE state = 'pending' AND signing_period_expires_at <= ${now}::timestamptz
        ORDER BY signing_period_expires_at, id
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      UPDATE contracts c SET state = 'overdue', state_updated_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
      FROM due WHERE c.id = due.id
      RETURNING c.id, c.signing_period_expires_at AS expires`,
    async handle(tx: Tx, taken) {
      for (const row of taken) {
        await writeAuditEvent({
          db: tx,
          actor: { kind: "system" },
          action: "contract.overdue",
          entityType: "contract",
          entityId: row.id,
          contractId: row.id,
          before: { state: "pending" },
          after: { state: "overdue", signing_period_expiry_time: row.expires.toISOString() },
        });
      }
    },
  });
  return rows.map((row) => row.id).sort((a, b) => a - b);
}
