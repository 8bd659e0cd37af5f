import { ApiError } from "@/lib/api/errors";
import type { PrismaClient } from "@/lib/db";
import { countHit } from "@/lib/db/count-hit";
import { env } from "@/lib/env";

const WINDOW_MS = 60_000;

/**
 * Counts one request of an API token in the current minute and refuses it (429 with Retry-After)
 * past `API_RATE_LIMIT_PER_MINUTE` (0 = no limit). The counter is a row in the database, updated
 * by one atomic upsert, so every app instance shares one limit per token.
 */
export async function consumeApiRequest(prisma: PrismaClient, apiTokenId: number, now = Date.now()): Promise<void> {
  const limit = env().API_RATE_LIMIT_PER_MINUTE;
  if (limit === 0) return;
  const windowStart = BigInt(Math.floor(now / WINDOW_MS) * WINDOW_MS);
  const key = `api-token:${apiTokenId}`;
  // `last_request` holds the start of the counted minute; a newer minute starts again at 1.
  const row = await countHit(prisma, { key, stamp: windowStart, resetAtOrBefore: windowStart - 1n, restampBelow: 0 });
  if ((row?.count ?? 0) > limit) {
    const retryAfter = Math.max(1, Math.ceil((Number(windowStart) + WINDOW_MS - now) / 1000));
    throw new ApiError("rate_limited", `This API token may make ${limit} requests a minute; try again in ${retryAfter} s.`, {
      headers: { "Retry-After": String(retryAfter) },
    });
  }
}
