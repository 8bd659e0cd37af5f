import type { PrismaClient } from "@/lib/db";
import type { TUserActor } from "@/lib/domain/actor";
import { generateCalendarFeedToken, hashCalendarFeedToken } from "@/lib/domain/calendar-feed";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";

export interface RenewCalendarFeedOptions {
  db: PrismaClient;
  /** The signed-in user whose feed it is. */
  actor: TUserActor;
  requestId?: string;
}

/**
 * Gives the user a new calendar feed secret, which replaces any earlier one (its URL answers 404
 * from the commit on). Only the hash is stored; the secret is in the result, the one time it exists.
 */
export async function renewCalendarFeed({ db, actor, requestId }: RenewCalendarFeedOptions): Promise<{ token: string }> {
  const token = generateCalendarFeedToken();
  await db.$transaction(async (tx) => {
    const before = await tx.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { calendarFeedTokenHash: true } });
    await tx.user.update({ where: { id: actor.userId }, data: { calendarFeedTokenHash: hashCalendarFeedToken(token) } });
    await writeAuditEvent({
      db: tx,
      actor,
      action: before.calendarFeedTokenHash === null ? "user.calendar_feed_create" : "user.calendar_feed_renew",
      entityType: "user",
      entityId: actor.userId,
      requestId,
      before: { calendar_feed: before.calendarFeedTokenHash !== null },
      after: { calendar_feed: true },
    });
  });
  return { token };
}
