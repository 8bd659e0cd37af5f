import type { PrismaClient } from "@/lib/db";

export interface CountHitOptions {
  /** The counter's row in `rate_limits`, e.g. `api-token:7`. */
  key: string;
  /** What `last_request` is set to when the counter starts or is stamped again. */
  stamp: bigint;
  /** A counter whose `last_request` is at or before this starts again at 1 (its window is over). */
  resetAtOrBefore: bigint;
  /**
   * While the count (before this hit) is below this, each hit stamps `last_request` again; from it on
   * `last_request` stays, so a blocked caller cannot push its own window forward. 0: never restamp
   * within a window.
   */
  restampBelow: number;
}

/**
 * Counts one hit on a throttle counter with one atomic upsert, so concurrent hits (from any number
 * of app instances) cannot slip past a limit. Used by the sign-in throttle
 * (lib/auth/sign-in-throttle.ts); the API rate limit leases quota instead (`leaseQuota` in lib/api/rate-limit.ts).
 * Returns the count including this hit.
 */
export async function countHit(
  prisma: PrismaClient,
  { key, stamp, resetAtOrBefore, restampBelow }: CountHitOptions,
): Promise<{ count: number; last_request: bigint } | undefined> {
  const rows = await prisma.$queryRaw<{ count: number; last_request: bigint }[]>`
    INSERT INTO rate_limits (key, count, last_request) VALUES (${key}, 1, ${stamp})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.last_request <= ${resetAtOrBefore} THEN 1 ELSE rate_limits.count + 1 END,
      last_request = CASE
        WHEN rate_limits.last_request <= ${resetAtOrBefore} OR rate_limits.count < ${restampBelow} THEN ${stamp}
        ELSE rate_limits.last_request
      END
    RETURNING count, last_request`;
  return rows[0];
}
