import type { PrismaClient } from "@/lib/db";

/** A lease takes at most this share of what is still free in the window (1/8), and at least 1. */
export const LEASE_SHARE_DIVISOR = 8;

export interface LeaseQuotaOptions {
  /** The counter's row in `rate_limits`, e.g. `api-token:7`. */
  key: string;
  /** Start (ms since the epoch) of the fixed window being leased from; kept in `last_request`. */
  windowStart: bigint;
  /** Requests allowed per window, shared by every holder of a lease. */
  limit: number;
  /** The most this caller wants now (≥ 1); it may get less, never more. */
  want: number;
}

/**
 * Takes a chunk of a fixed window's quota from a shared counter in `rate_limits`, with ONE atomic
 * statement. The row's `count` is how much of the window's `limit` has been handed out so far (to
 * any app instance); `last_request` is the start of that window. A row of an older window counts
 * as empty (the window starts again); a row of the same or a newer window is added to.
 *
 * The chunk is computed in SQL from what is free *after* the row lock is taken:
 * `min(want, free, max(1, ceil(free / 8)))`. So `count` never exceeds `limit`, large limits need a
 * write about once per many requests, and near the limit chunks shrink to 1 (the limit is exact).
 *
 * Returns the chunk granted (≥ 1), 0 when the window's quota is all handed out (nothing is
 * written then), or `undefined` when the row did not exist and a concurrent caller created it
 * first (call again).
 *
 * Why the old count is read through a locked subquery instead of a plain upsert: the caller must
 * learn exactly how much it was granted, and PostgreSQL before 18 returns only the new row. The
 * `FOR UPDATE` in `held` waits for any concurrent lease on the row and then reads its newest
 * version (READ COMMITTED re-check), and the UPDATE writes that same locked row, so two leases
 * never take the same part of the quota.
 */
export async function leaseQuota(prisma: PrismaClient, { key, windowStart, limit, want }: LeaseQuotaOptions): Promise<number | undefined> {
  const rows = await prisma.$queryRaw<{ granted: number }[]>`
    WITH held AS (
      SELECT id, count, last_request FROM rate_limits WHERE key = ${key}::text FOR UPDATE
    ), used AS (
      SELECT id, CASE WHEN last_request < ${windowStart}::bigint THEN 0 ELSE count END AS n FROM held
    ), taken AS (
      UPDATE rate_limits r
      SET count = u.n + LEAST(${want}::int, ${limit}::int - u.n,
                              GREATEST(1, CEIL((${limit}::int - u.n) / ${LEASE_SHARE_DIVISOR}::numeric)::int)),
          last_request = GREATEST(r.last_request, ${windowStart}::bigint)
      FROM used u
      WHERE r.id = u.id AND u.n < ${limit}::int
      RETURNING r.count - u.n AS granted
    ), created AS (
      INSERT INTO rate_limits (key, count, last_request)
      SELECT ${key}::text, LEAST(${want}::int, ${limit}::int,
                                 GREATEST(1, CEIL(${limit}::int / ${LEASE_SHARE_DIVISOR}::numeric)::int)),
             ${windowStart}::bigint
      WHERE NOT EXISTS (SELECT 1 FROM held)
      ON CONFLICT (key) DO NOTHING
      RETURNING count AS granted
    )
    SELECT granted FROM taken
    UNION ALL SELECT granted FROM created
    UNION ALL SELECT 0 AS granted FROM used WHERE n >= ${limit}::int`;
  return rows[0]?.granted;
}
