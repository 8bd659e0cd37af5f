import { timingSafeEqual } from "node:crypto";
import { ApiError } from "@/lib/api/errors";
import { logger, serializeError } from "@/lib/logger";
import { hashApiToken, MIN_API_TOKEN_LENGTH } from "@/lib/domain/api-token";
import type { PrismaClient } from "@/lib/db";
import type { Actor, TUserActor } from "@/lib/domain/actor";

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
const MAX_API_TOKEN_LENGTH = 512;
const MAX_EMAIL_LENGTH = 320;
/** `lastUsedAt` is a hint for the tokens page, not an audit trail: one write a minute is enough. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The actor of a request that authenticates with headers (docs/api.md "Authentication"): `x-service-api-token` must be a
 * live token; `x-service-user-email` names the active user to act for, and its absence means the
 * anonymous admin (docs/api.md "Authentication").
 */
export async function authenticateApiRequest(req: Request, prisma: PrismaClient): Promise<Actor> {
  const apiTokenId = await verifyApiToken(credentialHeader(req.headers, API_TOKEN_HEADER), prisma);
  const email = credentialHeader(req.headers, USER_EMAIL_HEADER);
  if (email === null) return { kind: "anonymous_admin", isAdmin: true, via: "api_token", apiTokenId };
  // An empty header is most likely an unset variable in the client: acting as the anonymous admin
  // then would silently grant more than the caller meant to use.
  if (email === "") {
    throw new ApiError("unknown_user_email", `${USER_EMAIL_HEADER} is empty; omit the header to act as the anonymous admin.`);
  }
  const actor = email.length <= MAX_EMAIL_LENGTH ? await loadUserActor(prisma, { email }, { via: "api_token", apiTokenId }) : null;
  if (!actor) throw new ApiError("unknown_user_email", `No active user has the e-mail given in ${USER_EMAIL_HEADER}.`);
  return actor;
}

/** The id of the live token `token` is, or a 401. */
async function verifyApiToken(token: string | null, prisma: PrismaClient): Promise<number> {
  if (!token) throw new ApiError("missing_api_token", `The ${API_TOKEN_HEADER} header is required.`);
  const invalid = () => new ApiError("invalid_api_token", "The API token is invalid or has been revoked.");
  if (token.length < MIN_API_TOKEN_LENGTH || token.length > MAX_API_TOKEN_LENGTH) throw invalid();

  const hash = hashApiToken(token);
  const row = await prisma.apiToken.findUnique({
    where: { tokenHash: hash },
    select: { id: true, tokenHash: true, revokedAt: true, lastUsedAt: true },
  });
  // The lookup already matched the hash; comparing again in constant time keeps a timing side
  // channel out even if the lookup ever becomes a prefix or case-insensitive match.
  if (!row || !sameHash(row.tokenHash, hash) || row.revokedAt !== null) throw invalid();

  await touchLastUsed(prisma, row.id, row.lastUsedAt);
  return row.id;
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

async function touchLastUsed(prisma: PrismaClient, id: number, lastUsedAt: Date | null): Promise<void> {
  const now = new Date();
  const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  if (lastUsedAt && lastUsedAt > staleBefore) return;
  try {
    // Conditional, so a burst of requests from one token writes the row once.
    await prisma.apiToken.updateMany({
      where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: staleBefore } }] },
      data: { lastUsedAt: now },
    });
  } catch (error) {
    // Bookkeeping must not fail an otherwise good request.
    logger.warn("api token last_used_at not updated", { api_token_id: id, error: serializeError(error) });
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
  // E-mails are stored lower-case (every way of creating a user normalizes them), so an exact match
  // on the unique index is case-insensitive. Never a pattern match: `%` or `_` in a header must not
  // match someone.
  const user = await prisma.user.findFirst({
    where: { active: true, ...("id" in who ? { id: who.id } : { email: who.email.trim().toLowerCase() }) },
    select: {
      id: true,
      email: true,
      name: true,
      isAdmin: true,
      memberships: { select: { workspaceId: true, role: true } },
    },
  });
  if (!user) return null;
  return {
    kind: "user",
    userId: user.id,
    email: user.email,
    name: user.name,
    isAdmin: user.isAdmin,
    roles: new Map(user.memberships.map((m) => [m.workspaceId, m.role])),
    via: how.via,
    apiTokenId: how.apiTokenId,
  };
}
