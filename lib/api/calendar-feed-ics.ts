// The calendar feed's answer (GET /api/calendar/{token}.ics): iCalendar written by ical-generator
// (RFC 5545: CRLF lines folded at 75 octets, text escaped), one all-day event per contract date.
import ical, { ICalCalendarMethod } from "ical-generator";
import { CALENDAR_FEED_SUMMARY, calendarFeedEventUid, type TCalendarFeedEvent } from "@/lib/domain/calendar-feed";

/** How often subscribers are asked to fetch again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
const REFRESH_SECONDS = 3600;

/** The feed of `events` for `ownerName`, with links to the contracts' pages under `origin`. */
export function calendarFeedIcs(events: readonly TCalendarFeedEvent[], { origin, ownerName, now }: { origin: string; ownerName: string; now: Date }): string {
  const host = new URL(origin).host;
  const calendar = ical({
    name: `Contracts — ${ownerName}`,
    description: "Notice deadlines and end dates of the contracts you may see",
    prodId: { company: "Contracts admin", product: "Calendar feed", language: "EN" },
    method: ICalCalendarMethod.PUBLISH,
    ttl: REFRESH_SECONDS,
  });
  for (const event of events) {
    const url = `${origin}/contracts/${event.contractId}`;
    calendar.createEvent({
      id: calendarFeedEventUid(event, host),
      // An all-day event on the contract's calendar day (a DATE value, no time zone).
      start: new Date(`${event.date}T00:00:00Z`),
      allDay: true,
      stamp: now,
      summary: `${CALENDAR_FEED_SUMMARY[event.kind]}: ${event.contractName}`,
      description: `${CALENDAR_FEED_SUMMARY[event.kind]} of "${event.contractName}" (${event.workspaceName}): ${url}`,
      url,
    });
  }
  return calendar.toString();
}
