// A user's private calendar feed (docs/security.md "The calendar feed"): its secret, how it is
// stored, and what the feed holds. Pure.
import { hash, randomBytes } from "node:crypto";

/** The secret in the feed's URL: 32 random bytes, base64url (43 characters). */
export function generateCalendarFeedToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The secret is stored, and looked up, only as this hash (hex SHA-256), like API tokens. */
export function hashCalendarFeedToken(token: string): string {
  return hash("sha256", token, "hex");
}

/** The feed's file name in its URL: `<token>.ics`. Anything else is no feed. */
export const CALENDAR_FEED_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;

/** What a feed holds: the dates from this many days ago to this many months ahead, at most this many events. */
export const CALENDAR_FEED_BOUNDS = { pastDays: 31, aheadMonths: 24, maxEvents: 2000 } as const;

/** A fetch per feed per minute at most this many times (calendar clients poll every few hours). */
export const CALENDAR_FEED_FETCHES_PER_MINUTE = 30;

export const CALENDAR_FEED_EVENT_KINDS = ["notice_deadline", "end_date"] as const;
export type TCalendarFeedEventKind = (typeof CALENDAR_FEED_EVENT_KINDS)[number];

/** One event: a contract's date of one kind (an all-day event). */
export interface TCalendarFeedEvent {
  contractId: number;
  contractName: string;
  workspaceName: string;
  kind: TCalendarFeedEventKind;
  /** `YYYY-MM-DD`. */
  date: string;
}

/** An event's UID: the same contract, kind and date is the same event at every fetch, so clients update rather than duplicate. */
export const calendarFeedEventUid = (event: TCalendarFeedEvent, host: string) => `contract-${event.contractId}-${event.kind}-${event.date}@${host}`;

export const CALENDAR_FEED_SUMMARY: Record<TCalendarFeedEventKind, string> = { notice_deadline: "Notice deadline", end_date: "Contract ends" };
