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

/**
 * Hands back claims whose attempt never started (a run told to stop): each row is `queued` again,
 * due as before, its attempt uncounted, so any instance takes it at once. Only while the claim is
 * still this one; answers how many were.
 */
export async function releaseClaims(db: PrismaClient, queue: TLeaseQueue, claims: readonly TClaim[]): Promise<number> {
  if (claims.length === 0) return 0;
  const [table, key, claimed] = [Prisma.raw(queue.table), Prisma.raw(queue.key), Prisma.raw(`'${queue.claimed}'`)];
  return db.$executeRaw`
    UPDATE ${table} d SET status = 'queued', lease_until = NULL, attempts = d.attempts - 1
      FROM unnest(${claims.map((c) => c.key)}::int[], ${claims.map((c) => c.attempts)}::int[]) AS c(key, attempts)
     WHERE d.${key} = c.key AND d.status = ${claimed} AND d.attempts = c.attempts`;
}
