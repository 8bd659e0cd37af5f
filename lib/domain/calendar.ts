// Calendar dates and periods (docs/lifecycle.md "Dates"): what a contract's term is measured in.
// A date is `YYYY-MM-DD` with no time of day; a period is ISO 8601 with one unit (`P30D`, `P2W`,
// `P6M`, `P1Y`). Adding months clamps to the month's end (31 January + 1 month = the last day of
// February), as date-fns does. A date begins at midnight in a workspace's time zone (IANA name):
// that instant is when a contract starts, renews or ends. Pure.
import { TZDate } from "@date-fns/tz";
import { addDays, addMonths, format } from "date-fns";

export type TPeriodUnit = "D" | "W" | "M" | "Y";
export interface TPeriod {
  count: number;
  unit: TPeriodUnit;
}

/** The longest period a setting may name, per unit (100 years). */
export const MAX_PERIOD_COUNT: Readonly<Record<TPeriodUnit, number>> = { D: 36_500, W: 5_200, M: 1_200, Y: 100 };

const PERIOD = /^P([1-9]\d{0,4})([DWMY])$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `P6M` → 6 months; null when it is not a one-unit ISO 8601 period within `MAX_PERIOD_COUNT`. */
export function parsePeriod(text: string): TPeriod | null {
  const match = PERIOD.exec(text);
  if (!match) return null;
  const period = { count: Number(match[1]), unit: match[2] as TPeriodUnit };
  return period.count <= MAX_PERIOD_COUNT[period.unit] ? period : null;
}

/** Whether `text` is a real calendar date `YYYY-MM-DD` between the years 1900 and 2999. */
export function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (y < 1900 || y > 2999) return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A date as a moment in UTC, for arithmetic that has no time of day. */
function utc(date: string): TZDate {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new TZDate(y, m - 1, d, "UTC");
}

const text = (date: TZDate) => format(date, "yyyy-MM-dd");

/** `date` plus `times` × `period` (months clamped to the month's end). */
export const addPeriod = (date: string, period: TPeriod, times = 1): string => addPeriods(date, [period, times]);

const MONTHS_IN: Readonly<Record<TPeriodUnit, number>> = { D: 0, W: 0, M: 1, Y: 12 };
const DAYS_IN: Readonly<Record<TPeriodUnit, number>> = { D: 1, W: 7, M: 0, Y: 0 };

/**
 * `date` plus each period its times: the months and years of them all together first, clamped to
 * the month's end once, then the days and weeks. So a month's end is never carried on: 31 January
 * plus 1 month, then 1 month more, is 31 March (29 March when February's clamp is kept).
 */
export function addPeriods(date: string, ...parts: [TPeriod, number][]): string {
  const months = parts.reduce((sum, [period, times]) => sum + MONTHS_IN[period.unit] * period.count * times, 0);
  const days = parts.reduce((sum, [period, times]) => sum + DAYS_IN[period.unit] * period.count * times, 0);
  return text(addDays(addMonths(utc(date), months), days));
}

/** `date` minus `period`. */
export const subtractPeriod = (date: string, period: TPeriod): string => addPeriod(date, period, -1);

/** `date` plus `days` days. */
export const addDaysTo = (date: string, days: number): string => text(addDays(utc(date), days));

/** The calendar date it is at `instant` in `timeZone`. */
export function dateAt(instant: Date, timeZone: string): string {
  return format(new TZDate(instant.getTime(), timeZone), "yyyy-MM-dd");
}

/** The instant `date` begins (midnight) in `timeZone`. */
export function startOf(date: string, timeZone: string): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d, timeZone).getTime());
}

/** The instant `date` reaches `hour`:00 in `timeZone` (mail about a day goes out at 08:00 there). */
export function instantAt(date: string, hour: number, timeZone: string): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d, hour, 0, 0, timeZone).getTime());
}

/**
 * Whether `timeZone` is an IANA time zone this runtime knows. Not an offset (`+05:00`): newer
 * runtimes take one as a zone, and PostgreSQL reads the same text as a POSIX zone, west of UTC.
 */
export function isTimeZone(timeZone: string): boolean {
  if (!/^[A-Za-z]/.test(timeZone)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone });
    return timeZone.length <= 64;
  } catch {
    return false;
  }
}

/** The fewest and the most days a period can span (a month: 28 to 31; a year: 365 to 366). */
export function periodDays(period: TPeriod): { min: number; max: number } {
  const per = { D: [1, 1], W: [7, 7], M: [28, 31], Y: [365, 366] }[period.unit];
  return { min: per[0]! * period.count, max: per[1]! * period.count };
}

/** A period as people read it: "3 months", "1 year". */
export function describePeriod(period: TPeriod): string {
  const word = { D: "day", W: "week", M: "month", Y: "year" }[period.unit];
  return `${period.count} ${word}${period.count === 1 ? "" : "s"}`;
}
