import type { PrismaClient } from "@/lib/db";
import { hashCalendarFeedToken } from "@/lib/domain/calendar-feed";

/**
 * The active user whose feed secret this is, or null. Looked up by the secret's hash (a unique
 * index), so no stored secret is compared character by character; a revoked or renewed secret, or
 * an inactive user, finds nobody.
 */
export async function findCalendarFeedOwner({ db, token }: { db: PrismaClient; token: string }): Promise<{ id: number } | null> {
  const user = await db.user.findUnique({ where: { calendarFeedTokenHash: hashCalendarFeedToken(token) }, select: { id: true, active: true } });
  return user?.active ? { id: user.id } : null;
}
