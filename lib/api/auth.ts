// Who calls: the credentials of a request (an API token with the user it acts for, or a staff
// session, whose changes must come from this app's pages) read in one statement with what the route
// preloads. Whether a token may call now is its rate limit's (lib/api/rate-limit.ts), which the
// wrapper (lib/api/endpoint.ts) asks after this. `loadUserActor` reads a user as the same statement
// does, for who else names one.
import { ApiError } from "@/lib/api/errors";
import { logger, serializeError } from "@/lib/logger";
import { hashApiToken, MIN_API_TOKEN_LENGTH } from "@/lib/domain/access";
import type { PrismaClient } from "@/lib/db";
import { queryRows } from "@/lib/db/query";
import { AUTH_CTE, PIECE_BYTES, preloadFormOf, type Sql, type TPreload } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Actor, TUserActor, TWorkspaceRole } from "@/lib/domain/actor";
import { getSessionUser } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { appOrigins } from "@/lib/http/origin";

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
  const form = preloadFormOf(preload);
  const rows = await queryRows<TAuthColumns>(prisma, authStatementSql(credentials, preload));
  const row = rows[0]!;
  // In pieces (lib/db/sql.ts `TPreloadForm`): a row each, in order; no preload: one row, NULL.
  const preloaded = form.inPieces && row.preload !== null ? rows.map((r) => r.preload as string) : row.preload;
  return {
    token: row.token_id === null ? null : { id: row.token_id, token_hash: row.token_hash!, revoked: row.token_revoked!, last_used_ms: row.token_last_used_ms },
    user: row.user_id === null ? null : { id: row.user_id, email: row.user_email!, name: row.user_name!, is_admin: row.user_is_admin!, roles: row.user_roles! },
    preload: preload ? preloaded : undefined,
  };
}

/**
 * The statement `authStatement` sends (exported for the benchmark's query plans, bench/explain.ts).
 * `usr` reads the user's memberships by the one user's row: a join grouped by user cost PostgreSQL a
 * hash, a sort and a group on every statement. An admin's `ws` is left empty, not aggregated:
 * every use of it is behind `scope.all_ws`, which an admin has (lib/db/sql.ts `TPreload`; the
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
           ${preloadColumn(preload, holds)} AS preload
      FROM ${AUTH_CTE.scope}${AUTH_ROW_JOINS}${preloadPieces(preload, holds)}`;
}

/** The `preload` column: the preload's value when the credentials hold, or a piece of it (`preloadPieces`). */
function preloadColumn(preload: TPreload | undefined, holds: Sql): Sql {
  if (!preload) return Prisma.raw("NULL");
  return preloadFormOf(preload).inPieces ? Prisma.raw("a_piece.text") : Prisma.sql`CASE WHEN ${holds} THEN ${preload} END`;
}

/**
 * For a preload `inPieces` (its UTF-8 bytes): one row per `PIECE_BYTES` of them, in order, each
 * escaped (lib/db/sql.ts `TPreloadForm`); the preload is computed once, and no bytes (the
 * credentials do not hold, or nothing to read) give one row with NULL. `OFFSET 0` keeps `a_pre` a
 * subquery of its own: pulled up, its expression would be copied into both places that read it,
 * and PostgreSQL would plan the whole preload twice (1.2 of a list's 2.9 ms of planning).
 */
function preloadPieces(preload: TPreload | undefined, holds: Sql): Sql {
  if (!preload || !preloadFormOf(preload).inPieces) return Prisma.empty;
  return Prisma.sql`
      LEFT JOIN LATERAL (SELECT CASE WHEN ${holds} THEN ${preload} END AS bytes OFFSET 0) a_pre ON true
      LEFT JOIN LATERAL (SELECT encode(substring(a_pre.bytes FROM a_at FOR ${PIECE_BYTES}::int), 'escape') AS text, a_at
                           FROM generate_series(1, length(a_pre.bytes), ${PIECE_BYTES}::int) a_at) a_piece ON true
     ORDER BY a_piece.a_at`;
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
 * the browser's `Origin` must be this site's). A token's request is then counted against its rate
 * limit by the wrapper (lib/api/rate-limit.ts), a session's is not.
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
  return authenticateApiRequest(req, prisma, preload);
}
