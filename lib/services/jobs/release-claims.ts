import type { PrismaClient } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

import type { TClaim, TLeaseQueue } from "./claim-due";

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
