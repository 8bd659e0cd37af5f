// Who calls, and whether they may now: the credentials of a request (an API token with the user it
// acts for, or a staff session, whose changes must come from this app's pages) read in one
// statement with what the route preloads; then, for a token, its share of the per-minute rate limit
// (below, "The token's rate limit"). One module because they are one decision, made once per
// request before any handler runs: only an authenticated caller is counted, and a refused one
// counts nothing. `loadUserActor` reads a user as the same statement does, for who else names one.
import { ApiError } from "@/lib/api/errors";
import { logger, serializeError } from "@/lib/logger";
import { hashApiToken, MIN_API_TOKEN_LENGTH } from "@/lib/domain/access";
import { AUTH_CTE, type PrismaClient, queryOne, type Sql, type TPreload } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Actor, TUserActor, TWorkspaceRole } from "@/lib/domain/actor";
import { getSessionUser } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { appOrigins } from "@/lib/http/front-door";

export const API_TOKEN_HEADER = "x-service-api-token";
export const USER_EMAIL_HEADER = "x-service-user-email";
/**
 * The names clients written for the Oneflow API send the same credentials under
 * (docs/api.md "Authentication"): each is the same as ours.
 */
export const HEADER_ALIASES = {
  [API_TOKEN_HEADER]: "x-oneflow-api-token",
  [USER_EMAIL_HEADER]: "x-oneflow-user-email",
} as const;

/**
 * A credential header under our name or its Oneflow alias; null when neither is sent. Both with
 * different values is a 400: which one the client meant cannot be known.
 */
export function credentialHeader(headers: Headers, name: keyof typeof HEADER_ALIASES): string | null {
  const ours = headers.get(name);
  const alias = headers.get(HEADER_ALIASES[name]);
  if (ours !== null && alias !== null && ours !== alias) {
    throw new ApiError("conflicting_credentials", `${name} and ${HEADER_ALIASES[name]} are both sent, with different values; send one.`);
  }
  return ours ?? alias;
}

// Longer values are not tokens we issued or seeded; refusing them avoids hashing arbitrary input.
export const MAX_API_TOKEN_LENGTH = 512;
const MAX_EMAIL_LENGTH = 320;
/** `lastUsedAt` is a hint for the tokens page, not an audit trail: one write a minute is enough. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type { TPreload };

/** Who the statement looks up: an API token by its hash, and a user by e-mail or id (each optional). */
export interface TCredentials {
  tokenHash: string | null;
  email: string | null;
  userId: number | null;
}

interface TAuthRow {
  token: { id: number; token_hash: string; revoked: boolean; last_used_ms: number | null } | null;
  user: { id: number; email: string; name: string; is_admin: boolean; roles: [number, TWorkspaceRole][] } | null;
  preload: unknown;
}

/**
 * The statement's row: the token's and the user's fields as columns of their own (null when none
 * was found), which the driver reads as they are, where a JSON object per row would be built by
 * PostgreSQL and parsed again here on every request.
 */
interface TAuthColumns extends Record<string, unknown> {
  token_id: number | null;
  token_hash: string | null;
  token_revoked: boolean | null;
  token_last_used_ms: number | null;
  user_id: number | null;
  user_email: string | null;
  user_name: string | null;
  user_is_admin: boolean | null;
  user_roles: [number, TWorkspaceRole][] | null;
  preload: unknown;
}

/**
 * One statement: the token by its hash, the active user (by e-mail or id) with the workspace roles,
 * the `scope` the two give, and the preload (only when the credentials hold). Everything is read
 * on every request, so a revoked token or a deactivated user is refused on the very next request
 * on every instance.
 */
async function authStatement(prisma: PrismaClient, credentials: TCredentials, preload: TPreload | undefined): Promise<TAuthRow> {
  const row = (await queryOne<TAuthColumns>(prisma, authStatementSql(credentials, preload)))!;
  return {
    token: row.token_id === null ? null : { id: row.token_id, token_hash: row.token_hash!, revoked: row.token_revoked!, last_used_ms: row.token_last_used_ms },
    user: row.user_id === null ? null : { id: row.user_id, email: row.user_email!, name: row.user_name!, is_admin: row.user_is_admin!, roles: row.user_roles! },
    preload: preload ? row.preload : undefined,
  };
}

/**
 * The statement `authStatement` sends (exported for the benchmark's query plans, bench/explain.ts).
 * `usr` reads the user's memberships by the one user's row: a join grouped by user cost PostgreSQL a
 * hash, a sort and a group on every statement. An admin's `ws` is left empty, not aggregated:
 * every use of it is behind `scope.all_ws`, which an admin has (lib/db/index.ts `TPreload`; the
 * hot-reads test reads as an admin who is a member of one workspace). The token's and the user's
 * columns are joined to `scope` (`AUTH_ROW_JOINS`).
 */
export function authStatementSql({ tokenHash, email, userId }: TCredentials, preload: TPreload | undefined): Sql {
  const noUserNamed = Prisma.sql`(${email}::text IS NULL AND ${userId}::int IS NULL)`;
  // The credentials hold: a live token (when one is sent) and an active user (when one is named).
  const holds = Prisma.sql`(${tokenHash}::text IS NULL OR EXISTS (SELECT 1 FROM ${AUTH_CTE.token} WHERE NOT revoked))
                 AND (${noUserNamed} OR EXISTS (SELECT 1 FROM ${AUTH_CTE.user}))`;
  return Prisma.sql`WITH ${AUTH_CTE.token} AS (
      SELECT id, token_hash, revoked_at IS NOT NULL AS revoked, last_used_at FROM api_tokens WHERE token_hash = ${tokenHash}::text
    ), ${AUTH_CTE.user} AS (
      SELECT u.id, u.email, u.name, u.is_admin,
             COALESCE((SELECT json_agg(json_build_array(m.workspace_id, m.role) ORDER BY m.workspace_id)
                         FROM workspace_memberships m WHERE m.user_id = u.id), '[]') AS roles,
             CASE WHEN u.is_admin THEN '{}'::int[]
                  ELSE COALESCE((SELECT array_agg(m.workspace_id) FROM workspace_memberships m WHERE m.user_id = u.id), '{}') END AS ws
        FROM users u
       WHERE u.active AND (u.email = ${email}::text OR u.id = ${userId}::int)
    ), ${AUTH_CTE.scope} AS (
      SELECT ${noUserNamed} OR COALESCE((SELECT is_admin FROM ${AUTH_CTE.user}), false) AS all_ws,
             COALESCE((SELECT ws FROM ${AUTH_CTE.user}), '{}') AS ws
    )
    SELECT a_tok.a_token_id AS token_id, a_tok.a_token_hash AS token_hash, a_tok.a_token_revoked AS token_revoked,
           a_tok.a_token_last_used_ms AS token_last_used_ms,
           a_usr.a_user_id AS user_id, a_usr.a_user_email AS user_email, a_usr.a_user_name AS user_name,
           a_usr.a_user_is_admin AS user_is_admin, a_usr.a_user_roles AS user_roles,
           ${preload ? Prisma.sql`CASE WHEN ${holds} THEN ${preload} END` : Prisma.raw("NULL")} AS preload
      FROM ${AUTH_CTE.scope}${AUTH_ROW_JOINS}`;
}

/**
 * The token's and the user's columns, joined to the one row of `scope` (no row: NULLs). Joined, not
 * nine scalar subqueries: PostgreSQL starts and runs one plan node per subquery, and the joins cost
 * it 5 µs less a statement (docs/performance.md). Their columns carry an `a_` prefix no table of the
 * schema uses, so a preload's unqualified column name can never resolve to them.
 */
const AUTH_ROW_JOINS = Prisma.sql`
      LEFT JOIN (SELECT id AS a_token_id, token_hash AS a_token_hash, revoked AS a_token_revoked,
                        (extract(epoch FROM last_used_at) * 1000)::float8 AS a_token_last_used_ms FROM ${AUTH_CTE.token}) a_tok ON true
      LEFT JOIN (SELECT id AS a_user_id, email AS a_user_email, name AS a_user_name, is_admin AS a_user_is_admin,
                        roles AS a_user_roles FROM ${AUTH_CTE.user}) a_usr ON true`;

function userActor(user: NonNullable<TAuthRow["user"]>, how: { via: TUserActor["via"]; apiTokenId: number | null }): TUserActor {
  return {
    kind: "user",
    userId: user.id,
    email: user.email,
    name: user.name,
    isAdmin: user.is_admin,
    roles: new Map(user.roles),
    via: how.via,
    apiTokenId: how.apiTokenId,
  };
}

/** A request authenticated by its headers: who, and the preload. */
export interface TApiAuthentication {
  actor: Actor;
  preloaded: unknown;
}

/**
 * The actor of a request that authenticates with headers (docs/api.md "Authentication"), and its
 * preload: `x-service-api-token` must be a live token; `x-service-user-email` names the active user
 * to act for, and its absence means the anonymous admin.
 */
export async function authenticateApiRequest(
  req: Request,
  prisma: PrismaClient,
  preload?: TPreload,
): Promise<TApiAuthentication> {
  const token = credentialHeader(req.headers, API_TOKEN_HEADER);
  // Read now (the statement needs it), but a 400 for conflicting e-mail headers is answered only
  // after the token is known good, as a token problem is the first thing a caller hears of.
  let email: string | null = null;
  let emailProblem: unknown = undefined;
  try {
    email = credentialHeader(req.headers, USER_EMAIL_HEADER);
  } catch (error) {
    emailProblem = error;
  }
  if (!token) throw new ApiError("missing_api_token", `The ${API_TOKEN_HEADER} header is required.`);
  const invalid = () => new ApiError("invalid_api_token", "The API token is invalid or has been revoked.");
  // Longer values are not tokens we issued or seeded; refusing them avoids hashing arbitrary input.
  if (token.length < MIN_API_TOKEN_LENGTH || token.length > MAX_API_TOKEN_LENGTH) throw invalid();
  const hash = hashApiToken(token);
  // E-mails are stored lower-case (every way of creating a user normalizes them), so an exact match
  // on the unique index is case-insensitive. Never a pattern match: `%` or `_` in a header must not
  // match someone. An over-long one matches no one (and is not sent).
  const lookupEmail = email === null || email === "" || email.length > MAX_EMAIL_LENGTH ? null : email.trim().toLowerCase();
  const unusable = emailProblem !== undefined || (email !== null && lookupEmail === null);
  const row = await authStatement(prisma, { tokenHash: hash, email: lookupEmail, userId: null }, unusable ? undefined : preload);
  // The lookup already matched the hash; comparing again in constant time keeps a timing side
  // channel out even if the lookup ever becomes a prefix or case-insensitive match.
  if (!row.token || !sameHash(row.token.token_hash, hash) || row.token.revoked) throw invalid();
  const apiTokenId = row.token.id;
  const lastUsedMs = row.token.last_used_ms;
  const nowAt = Date.now();
  if (lastUsedMs === null || lastUsedMs <= nowAt - LAST_USED_RESOLUTION_MS) await touchLastUsed(prisma, apiTokenId, nowAt);
  if (emailProblem !== undefined) throw emailProblem;

  if (email === null) return { actor: { kind: "anonymous_admin", isAdmin: true, via: "api_token", apiTokenId }, preloaded: row.preload };
  // An empty header is most likely an unset variable in the client: acting as the anonymous admin
  // then would silently grant more than the caller meant to use.
  if (email === "") {
    throw new ApiError("unknown_user_email", `${USER_EMAIL_HEADER} is empty; omit the header to act as the anonymous admin.`);
  }
  if (!row.user) throw new ApiError("unknown_user_email", `No active user has the e-mail given in ${USER_EMAIL_HEADER}.`);
  return { actor: userActor(row.user, { via: "api_token", apiTokenId }), preloaded: row.preload };
}

/**
 * The actor of a signed-in staff user (by id, from the session) and its preload; null when the user
 * is no longer active.
 */
export async function authenticateSessionUser(prisma: PrismaClient, userId: number, preload?: TPreload): Promise<{ actor: TUserActor; preloaded: unknown } | null> {
  const row = await authStatement(prisma, { tokenHash: null, email: null, userId }, preload);
  return row.user ? { actor: userActor(row.user, { via: "session", apiTokenId: null }), preloaded: row.preload } : null;
}

/** Whether two hashes are equal, in time that does not depend on where they differ. */
export function sameHash(a: string, b: string): boolean {
  // Every character compared, with no exit at the first difference (the usual constant-time
  // comparison in JavaScript), without the two Buffers `timingSafeEqual` needs: this runs on every
  // API request. The lengths are public (a SHA-256 in hex), so they are compared first.
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** Writes the token's last use (asked only when the one stored is a minute old or more). */
async function touchLastUsed(prisma: PrismaClient, id: number, nowAt: number): Promise<void> {
  const now = new Date(nowAt);
  const staleBefore = new Date(nowAt - LAST_USED_RESOLUTION_MS);
  try {
    // Conditional, so a burst of requests from one token writes the row once.
    await prisma.apiToken.updateMany({
      where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: staleBefore } }] },
      data: { lastUsedAt: now },
    });
  } catch (error) {
    // Bookkeeping must not fail an otherwise good request.
    logger.warn({ api_token_id: id, error: serializeError(error) }, "api token last_used_at not updated");
  }
}

/**
 * The actor of an active user, found by id or by e-mail (any letter case), with the user's workspace
 * roles; null when there is no such active user. Shared by every way a request can name a user.
 */
export async function loadUserActor(
  prisma: PrismaClient,
  who: { id: number } | { email: string },
  how: { via: TUserActor["via"]; apiTokenId: number | null },
): Promise<TUserActor | null> {
  const credentials = "id" in who ? { tokenHash: null, email: null, userId: who.id } : { tokenHash: null, email: who.email.trim().toLowerCase(), userId: null };
  const row = await authStatement(prisma, credentials, undefined);
  return row.user ? userActor(row.user, how) : null;
}

/**
 * Whether the browser says the request comes from a page of this app: `Origin` is one of
 * `appOrigins`. Cross-site forms and scripts cannot forge `Origin`.
 */
export function isSameOriginRequest(req: Request): boolean {
  const origin = req.headers.get("origin")?.toLowerCase();
  if (!origin || origin === "null") return false;
  return appOrigins(req, env().PUBLIC_URL).includes(origin);
}

/** CSRF defence for session-authenticated changes: 403 unless `isSameOriginRequest`. */
export function assertSameOrigin(req: Request): void {
  if (!isSameOriginRequest(req)) {
    throw new ApiError("origin_mismatch", "Changes made with a web-app session must come from this app's own pages (Origin header).");
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Who is calling a /v1 route: an external system with the token headers, or our own pages with
 * the staff session cookie. A request that carries a token is always judged by the token; a
 * session alone may read, and may change things only from this app's own pages (CSRF defence:
 * the browser's `Origin` must be this site's). Token requests count against the token's rate limit.
 *
 * `preload` is read in the same statement as the credentials (lib/api/auth.ts): `preloaded` is its
 * value, or undefined when there was none.
 */
export async function authenticate(req: Request, prisma: PrismaClient, preload?: TPreload): Promise<{ actor: Actor; preloaded: unknown }> {
  if (credentialHeader(req.headers, API_TOKEN_HEADER) === null) {
    const session = await getSessionUser(req.headers);
    if (session) {
      if (!SAFE_METHODS.has(req.method)) assertSameOrigin(req);
      const found = await authenticateSessionUser(prisma, session.userId, preload);
      if (!found) throw new ApiError("unknown_user_email", "Your account is no longer active.");
      return found;
    }
  }
  // A refused request counts nothing: counted only once the token is known good.
  const found = await authenticateApiRequest(req, prisma, preload);
  const apiTokenId = found.actor.apiTokenId!;
  // Counted from this process's lease without waiting when it can (the usual case), else waiting.
  if (!takeApiRequestNow(prisma, apiTokenId)) await consumeApiRequest(prisma, apiTokenId);
  return found;
}

// ——— The token's rate limit ———

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
function takeApiRequestNow(prisma: PrismaClient, apiTokenId: number, options?: ConsumeOptions): boolean {
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
