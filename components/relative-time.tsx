// "3 days ago", with the exact date and time on hover (title) and for machines (dateTime).

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function formatRelative(date: Date, now: number = Date.now()): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return relative.format(0, "second");
}

export function formatAbsolute(date: Date): string {
  return absolute.format(date);
}

export function RelativeTime({ iso }: { iso: string }) {
  const date = new Date(iso);
  return (
    // The text depends on the clock and the locale, so a server render and hydration may differ.
    <time dateTime={iso} title={formatAbsolute(date)} suppressHydrationWarning>
      {formatRelative(date)}
    </time>
  );
}
