// A calendar day (`YYYY-MM-DD`, no time of day) as words ("31 Jan 2027" in the reader's locale),
// read in UTC so it never shifts a day in the browser's zone.

/** The day's words. */
export const dayWords = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** The day as a `<time>`; a dash when unset. */
export function CalendarDate({ date }: { date: string | null }) {
  if (date === null) return <span className="text-slate-500">—</span>;
  return <time dateTime={date}>{dayWords(date)}</time>;
}
