import type { PrismaClient } from "@/lib/db";
import type { TUserActor } from "@/lib/domain/actor";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";

export interface RevokeCalendarFeedOptions {
  db: PrismaClient;
  actor: TUserActor;
  requestId?: string;
}

/** Ends the user's calendar feed: its URL answers 404 from the commit on. Without one, changes nothing (no event). */
export async function revokeCalendarFeed({ db, actor, requestId }: RevokeCalendarFeedOptions): Promise<void> {
  await db.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id: actor.userId, calendarFeedTokenHash: { not: null } }, data: { calendarFeedTokenHash: null } });
    if (count === 0) return;
    await writeAuditEvent({
      db: tx,
      actor,
      action: "user.calendar_feed_revoke",
      entityType: "user",
      entityId: actor.userId,
      requestId,
      before: { calendar_feed: true },
      after: { calendar_feed: false },
    });
  });
}
