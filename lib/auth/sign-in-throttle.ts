// Failed sign-ins per account. better-auth limits attempts per client IP, but the IP comes from
// X-Forwarded-For, which a client talking to the app directly can vary at will; counting per
// e-mail address as well bounds password guessing against one account whatever the IP.
import { createHash } from "node:crypto";
import type { PrismaClient } from "@/lib/db";
import { countHit } from "@/lib/db/count-hit";

/**
 * At most `max` sign-in attempts per account within `windowSeconds` of the last counted one; a
 * successful sign-in clears the count, so in effect only failures add up. The window must not
 * exceed better-auth's longest rate-limit window: it prunes `rate_limits` rows older than that.
 */
export const SIGN_IN_ACCOUNT_LIMIT = { max: 5, windowSeconds: 60 } as const;

export type TThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

function accountKey(email: string): string {
  // Hashed: the counters table is not a list of e-mail addresses people typed.
  const normalized = email.trim().toLowerCase();
  return `sign-in-account:${createHash("sha256").update(normalized, "utf8").digest("hex")}`;
}

/**
 * Counts one attempt for `email` and says whether it may proceed. Atomic (one upsert), so
 * concurrent attempts cannot all slip past the limit.
 */
export async function consumeSignInAttempt(
  prisma: PrismaClient,
  email: string,
  { max, windowSeconds } = SIGN_IN_ACCOUNT_LIMIT,
  now = Date.now(),
): Promise<TThrottleDecision> {
  const key = accountKey(email);
  const nowMs = BigInt(now);
  const windowStart = BigInt(now - windowSeconds * 1000);
  // A blocked attempt does not move the window, so waiting `retryAfter` always suffices.
  const row = await countHit(prisma, { key, stamp: nowMs, resetAtOrBefore: windowStart, restampBelow: max });
  if (!row || row.count <= max) return { allowed: true };
  const retryAfterMs = Number(row.last_request) + windowSeconds * 1000 - now;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
}

/** After a successful sign-in: the account's earlier failures no longer count. */
export async function clearSignInAttempts(prisma: PrismaClient, email: string): Promise<void> {
  await prisma.rateLimit.deleteMany({ where: { key: accountKey(email) } });
}
