// May this API token call now: its share of the per-minute rate limit (`API_RATE_LIMIT_PER_MINUTE`,
// docs/api.md), shared by every app instance through the database. Each process leases chunks of a
// token's quota (`leaseQuota`) and admits requests from its lease without a round trip. The wrapper
// (lib/api/endpoint.ts) counts a request here only once lib/api/auth.ts has found its token good, so
// a refused request counts nothing. Knows nothing of who the token belongs to.
import { ApiError } from "@/lib/api/errors";
import { logger, serializeError } from "@/lib/logger";
import type { PrismaClient } from "@/lib/db";
import { env } from "@/lib/env";

const WINDOW_MS = 60_000;
/** The start of the minute `now` falls in. */
const windowOf = (now: number) => Math.floor(now / WINDOW_MS) * WINDOW_MS;
/** Leases kept at most (one per token seen this minute); past it the oldest is dropped, unused part and all. */
export const MAX_LEASES = 10_000;
/** If a lost race to create the shared row repeats this often, give up (it cannot, but never loop). */
const MAX_CREATE_RACES = 3;
/**
 * A lease granted at least this many requests is topped up ahead (`topUp`) once a quarter of it is
 * left; smaller ones (a quiet token, or chunks shrunk near the limit) only when they run out.
 */
const TOP_UP_FROM = 8;
/** No top-up in a minute's last seconds: what it leased would mostly go unused, its minute ending. */
const TOP_UP_UNTIL_MS = WINDOW_MS - 5_000;

interface Lease {
  /** Start of the fixed one-minute window this lease belongs to. */
  window: number;
  /** Requests this process may still admit in that window without asking the database. */
  left: number;
  /** The shared counter had nothing left for this window: refuse without asking again. */
  exhausted: boolean;
  /** The size to ask for next; doubles with each lease, so a quiet token holds little. */
  want: number;
  /** Requests waiting for `reserving`. */
  waiting: number;
  /** Top up ahead once `left` is down to this (0: only when it runs out); set by each grant. */
  lowWater: number;
  /** The one reservation in flight for this token, awaited by every request that found `left` at 0. */
  reserving?: Promise<void>;
}

export interface ConsumeOptions {
  /** The time of the request (ms since the epoch). */
  now?: number;
  /** Requests per token and minute; 0 = no limit. Default: `API_RATE_LIMIT_PER_MINUTE`. */
  limit?: number;
}

export interface ApiRateLimiter {
  consume(prisma: PrismaClient, apiTokenId: number, options?: ConsumeOptions): Promise<void>;
  /**
   * `consume` when it needs no waiting: true when the request was counted from this process's
   * lease (or there is no limit); false counts nothing, and the request is then for `consume`.
   * The usual case, answered without a promise. (`prisma`: for topping the lease up ahead.)
   */
  takeNow(prisma: PrismaClient, apiTokenId: number, options?: ConsumeOptions): boolean;
  /** Once every reservation under way (a top-up's too) has ended (for tests). */
  settled(): Promise<void>;
  /** Tokens with a lease held (for tests of the memory bound). */
  size(): number;
}

/**
 * The per-token limit of one app instance (one process). The limit itself lives in the database
 * (`rate_limits`, one row per token: how much of the current minute's quota has been handed out),
 * so all instances share it; each instance leases chunks of that quota (`leaseQuota`, below) and
 * admits requests from its lease without touching the database. When a lease runs out, one
 * reservation per token is made and every request that needs it waits for that same one. A chunk
 * is at most 1/8 of what is still free and at most the ask (1 at first in a minute, then twice the
 * previous ask, or the number of requests waiting if more), so near the limit chunks are single
 * requests and the limit is exact: never exceeded, and an instance refuses only once the whole
 * minute's quota has been handed out (possibly to other instances that have not used all of
 * theirs: at most one lease each, ⌈limit/8⌉ at most, and the quarter of the one before it that a
 * top-up came early for). What a lease has left when its minute ends is dropped.
 *
 * A busy token's lease is topped up ahead (`topUp`): once a lease of at least 8 is down to a
 * quarter, the next is reserved in the background. Without it, every lease ran out under load, and
 * until the next came, each request waited for it.
 */
export function createApiRateLimiter({ maxLeases = MAX_LEASES } = {}): ApiRateLimiter {
  const leases = new Map<number, Lease>();
  let sweptWindow = 0;

  /** Counts one request from `lease` when it has one left, and tops the lease up when it runs low (`topUp`). */
  function takeFromLease(prisma: PrismaClient, apiTokenId: number, lease: Lease, limit: number, now: number): boolean {
    if (lease.left === 0) return false;
    lease.left--;
    topUp(prisma, apiTokenId, lease, limit, now);
    return true;
  }

  function leaseFor(apiTokenId: number, window: number): Lease {
    if (window > sweptWindow) {
      // A new minute: leases of past minutes are worth nothing any more.
      sweptWindow = window;
      for (const [id, lease] of leases) if (lease.window < window) leases.delete(id);
    }
    const held = leases.get(apiTokenId);
    // A request stamped in an older minute than the lease (clocks) counts against the newer one.
    if (held && held.window >= window) return held;
    const lease: Lease = { window, left: 0, exhausted: false, want: 1, waiting: 0, lowWater: 0 };
    leases.delete(apiTokenId);
    if (leases.size >= maxLeases) leases.delete(leases.keys().next().value!);
    leases.set(apiTokenId, lease);
    return lease;
  }

  async function reserve(prisma: PrismaClient, apiTokenId: number, lease: Lease, limit: number): Promise<void> {
    const want = Math.min(limit, Math.max(lease.want, lease.waiting));
    for (let attempt = 0; attempt < MAX_CREATE_RACES; attempt++) {
      const granted = await leaseQuota(prisma, { key: `api-token:${apiTokenId}`, windowStart: BigInt(lease.window), limit, want });
      if (granted === undefined) continue;
      if (granted === 0) lease.exhausted = true;
      lease.left += granted;
      lease.lowWater = granted >= TOP_UP_FROM ? Math.floor(granted / 4) : 0;
      lease.want = Math.min(limit, want * 2);
      return;
    }
    throw new Error(`Could not create the rate-limit row of API token ${apiTokenId}.`);
  }

  /** Reservations under way (`settled`). */
  const inFlight = new Set<Promise<void>>();

  /** The one reservation for `lease`, started when none is under way. */
  function reservation(prisma: PrismaClient, apiTokenId: number, lease: Lease, limit: number): Promise<void> {
    if (!lease.reserving) {
      const reserving: Promise<void> = reserve(prisma, apiTokenId, lease, limit).finally(() => {
        lease.reserving = undefined;
        inFlight.delete(reserving);
      });
      lease.reserving = reserving;
      inFlight.add(reserving);
    }
    return lease.reserving;
  }

  /**
   * After a request was counted from `lease`: when it is down to its low-water mark, the next lease
   * is reserved in the background (nobody waits for it). One that fails is logged, and that lease
   * is then renewed only when it runs out, as without a top-up: a database that fails is not asked
   * again by every request meanwhile.
   */
  function topUp(prisma: PrismaClient, apiTokenId: number, lease: Lease, limit: number, now: number): void {
    if (lease.left > lease.lowWater || lease.lowWater === 0 || lease.reserving || lease.exhausted || now - lease.window >= TOP_UP_UNTIL_MS) return;
    reservation(prisma, apiTokenId, lease, limit).catch((error: unknown) => {
      lease.lowWater = 0;
      logger.warn({ api_token_id: apiTokenId, error: serializeError(error) }, "rate limit: topping up a lease failed");
    });
  }

  return {
    settled: async () => {
      await Promise.allSettled([...inFlight]);
    },
    size: () => leases.size,
    takeNow(prisma, apiTokenId, { now = Date.now(), limit = env().API_RATE_LIMIT_PER_MINUTE } = {}) {
      return limit === 0 || takeFromLease(prisma, apiTokenId, leaseFor(apiTokenId, windowOf(now)), limit, now);
    },
    async consume(prisma, apiTokenId, { now = Date.now(), limit = env().API_RATE_LIMIT_PER_MINUTE } = {}) {
      if (limit === 0) return;
      const window = windowOf(now);
      for (;;) {
        const lease = leaseFor(apiTokenId, window);
        if (takeFromLease(prisma, apiTokenId, lease, limit, now)) return;
        if (lease.exhausted) {
          const retryAfter = Math.max(1, Math.ceil((lease.window + WINDOW_MS - now) / 1000));
          throw new ApiError("rate_limited", `This API token may make ${limit} requests a minute; try again in ${retryAfter} s.`, {
            headers: { "Retry-After": String(retryAfter) },
          });
        }
        lease.waiting++;
        try {
          await reservation(prisma, apiTokenId, lease, limit);
        } finally {
          lease.waiting--;
        }
      }
    },
  };
}

// One per process, kept on globalThis so Next's dev reloads keep the leases (like the database client).
const g = globalThis as { __contractsApiRateLimiter?: ApiRateLimiter };
const processLimiter = (g.__contractsApiRateLimiter ??= createApiRateLimiter());

/**
 * Counts one request of an API token in the current minute and refuses it (429 with Retry-After)
 * past `API_RATE_LIMIT_PER_MINUTE` (0 = no limit), shared by all app instances on the database.
 * Usually answered from this process's lease without a database round trip; see
 * `createApiRateLimiter`.
 */
export function consumeApiRequest(prisma: PrismaClient, apiTokenId: number, options?: ConsumeOptions): Promise<void> {
  return processLimiter.consume(prisma, apiTokenId, options);
}
/** `ApiRateLimiter.takeNow` of this process's limiter: `consumeApiRequest` is needed only when false. */
export function takeApiRequestNow(prisma: PrismaClient, apiTokenId: number, options?: ConsumeOptions): boolean {
  return processLimiter.takeNow(prisma, apiTokenId, options);
}

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
