import type { PrismaClient, Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

import type { TClaim, TLeaseQueue } from "./claim-due";

/**
 * Ends a claimed attempt that did not finish the work: the row goes back to `queued`, due again after
 * `delayMs`, or is given up (`failed`), keeping `error`; without `delayMs` its due time stays. Only
 * while the claim is still this one; answers whether it was.
 */
export async function endAttempt(db: PrismaClient | Tx, queue: TLeaseQueue, claim: TClaim, outcome: { status: "queued" | "failed"; error: string; delayMs?: number }): Promise<boolean> {
  const [table, key, claimed] = [Prisma.raw(queue.table), Prisma.raw(queue.key), Prisma.raw(`'${queue.claimed}'`)];
  const count = await db.$executeRaw`
    UPDATE ${table}
       SET status = ${Prisma.raw(`'${outcome.status}'`)}, lease_until = NULL, last_error = ${outcome.error},
           next_attempt_at = COALESCE(now() + make_interval(secs => ${outcome.delayMs === undefined ? null : outcome.delayMs / 1000}::float8), next_attempt_at)
     WHERE ${key} = ${claim.key} AND status = ${claimed} AND attempts = ${claim.attempts}`;
  return count === 1;
}
