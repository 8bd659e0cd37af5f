import type { PrismaClient } from "@/lib/db";
import type { TUserActor } from "@/lib/domain/actor";

/** Whether the user has a calendar feed now (its secret cannot be shown again: only its hash is kept). */
export async function getCalendarFeed({ db, actor }: { db: PrismaClient; actor: TUserActor }): Promise<{ active: boolean }> {
  const user = await db.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { calendarFeedTokenHash: true } });
  return { active: user.calendarFeedTokenHash !== null };
}
