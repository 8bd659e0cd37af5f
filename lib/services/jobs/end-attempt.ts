import type { PrismaClient, Tx } from "@/lib/db";

import type { TClaim, TLeaseQueue } from "./claim-due";

/**
 * Ends a claimed attempt that did not finish the work: the row goes back to `queued`, due again after
 * `delayMs`, or is given up (`failed`), keeping `error`; without `delayMs` its due time stays. Only
 * while the claim is still this one; answers whether it was.
 */
export async function endAttempt(db: PrismaClient | Tx, queue: TLeaseQueue, claim: TClaim, outcome: { status: "queued" | "failed"; error: string; delayMs?: number }): Promise<boolean> {
  const { table, key, claimed } = queue;
  const count = await db.$executeRawUnsafe(
    `UPDATE ${table}
        SET status = '${outcome.status}', lease_until = NULL, last_error = $1,
            next_attempt_at = COALESCE(now() + make_interval(secs => $2::float8), next_attempt_at)
      WHERE ${key} = $3 AND status = '${claimed}' AND attempts = $4`,
    outcome.error,
    outcome.delayMs === undefined ? null : outcome.delayMs / 1000,
    claim.key,
    claim.attempts,
  );
  return count === 1;
}
