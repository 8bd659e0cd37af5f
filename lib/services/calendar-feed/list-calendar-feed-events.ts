import type { PrismaClient } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { visibleWorkspaceIds } from "@/lib/domain/access";
import { CALENDAR_FEED_BOUNDS, type TCalendarFeedEvent } from "@/lib/domain/calendar-feed";
import { Prisma } from "@/lib/generated/prisma/client";

export interface ListCalendarFeedEventsOptions {
  db: PrismaClient;
  /** The feed's owner as they are now: their workspaces decide what the feed shows at each fetch. */
  actor: Actor;
  /** The day the feed is read (`YYYY-MM-DD`, UTC). */
  today: string;
}

/**
 * The notice deadlines and end dates of the contracts the actor may see, from
 * `CALENDAR_FEED_BOUNDS.pastDays` before `today` to `aheadMonths` after, soonest first, at most
 * `maxEvents`. Each kind is read by its index ([notice_deadline, id], [ends_on, id]).
 */
export async function listCalendarFeedEvents({ db, actor, today }: ListCalendarFeedEventsOptions): Promise<TCalendarFeedEvent[]> {
  const { pastDays, aheadMonths, maxEvents } = CALENDAR_FEED_BOUNDS;
  const workspaces = visibleWorkspaceIds(actor);
  const scope = workspaces === null ? Prisma.sql`true` : Prisma.sql`c.workspace_id = ANY(${workspaces}::int[])`;
  const from = Prisma.sql`(${today}::date - ${pastDays}::int)`;
  const to = Prisma.sql`(${today}::date + make_interval(months => ${aheadMonths}::int))::date`;
  const kind = (column: string, name: string) => Prisma.sql`
    SELECT c.id AS "contractId", c.name AS "contractName", w.name AS "workspaceName", ${name}::text AS kind,
           to_char(${Prisma.raw(column)}, 'YYYY-MM-DD') AS date, ${Prisma.raw(column)} AS at
      FROM contracts c JOIN workspaces w ON w.id = c.workspace_id
     WHERE ${Prisma.raw(column)} >= ${from} AND ${Prisma.raw(column)} <= ${to} AND ${scope}
     ORDER BY ${Prisma.raw(column)}, c.id LIMIT ${maxEvents}::int`;
  const rows = await db.$queryRaw<(TCalendarFeedEvent & { at: Date })[]>`
    SELECT "contractId", "contractName", "workspaceName", kind, date FROM (
      (${kind("c.notice_deadline", "notice_deadline")}) UNION ALL (${kind("c.ends_on", "end_date")})
    ) e ORDER BY at, "contractId", kind LIMIT ${maxEvents}::int`;
  return rows;
}
