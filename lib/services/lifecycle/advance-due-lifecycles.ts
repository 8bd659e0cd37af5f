import type { PrismaClient, Tx } from "@/lib/db";
import { now as clockNow } from "@/lib/clock";
import { Prisma } from "@/lib/generated/prisma/client";
import { takeDue } from "@/lib/services/jobs/take-due";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { advanceLifecycle } from "./advance-lifecycle";
import { LIFECYCLE_SELECT } from "./lifecycle-row";

export interface TLifecycleRun {
  /** Contracts whose turn it was. */
  contracts: number;
  /** Changes written (activations, renewals, ends). */
  changes: number;
  /** Owner warnings queued. */
  warnings: number;
}

/** Rounds of one run at most: each takes a batch; a full batch is followed by another. */
const MAX_ROUNDS = 100;

/**
 * The lifecycle job (docs/lifecycle.md "The job"), run by every instance: the signed contracts whose
 * `lifecycle_due_at` has come are taken `FOR UPDATE SKIP LOCKED`, a batch per transaction (takeDue), and each
 * is brought up to `now()` (lib/clock.ts) by advanceLifecycle: its changes and their audit events,
 * its owner's warnings and their marks, its next turn, all in that transaction. Two instances never
 * take the same contract, a contract a request holds (notice, termination) waits for the next
 * round, and a crash loses nothing: the turn stays due until a transaction that did the work
 * commits.
 */
export async function advanceDueLifecycles({ db, batch = 50, linkOrigin = "", stopping }: { db: PrismaClient; batch?: number; linkOrigin?: string; stopping?: () => boolean }): Promise<TLifecycleRun> {
  const run: TLifecycleRun = { contracts: 0, changes: 0, warnings: 0 };
  const now = clockNow();
  const due = await takeDue<{ id: number }>(db, {
    batch,
    rounds: MAX_ROUNDS,
    stopping,
    due: (limit) => Prisma.sql`
        SELECT id FROM contracts
         WHERE lifecycle_due_at <= ${now}::timestamptz AND state = 'signed'
         ORDER BY lifecycle_due_at, id
         LIMIT ${limit}
           FOR UPDATE SKIP LOCKED`,
    async handle(tx: Tx, taken) {
      for (const { id } of taken) {
        const row = await tx.contract.findUniqueOrThrow({ where: { id }, select: LIFECYCLE_SELECT });
        if (row.signedOn === null) {
          await tx.contract.update({ where: { id }, data: { lifecycleDueAt: null } });
          continue;
        }
        const done = await advanceLifecycle(tx, row, now, { linkOrigin });
        run.changes += done.changes.length;
        run.warnings += done.warnings;
      }
    },
  });
  run.contracts = due.length;
  if (run.warnings > 0) mailQueued();
  return run;
}
