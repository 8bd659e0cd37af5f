/**
 * A timestamp as the API answers it (docs/api.md "Conventions"): ISO 8601, UTC, milliseconds,
 * numeric offset. `toISOString()` already gives UTC with milliseconds but ends in `Z`.
 */
export function isoTime(date: Date): string {
  return `${date.toISOString().slice(0, -1)}+00:00`;
}

/** `isoTime` for columns that may be unset. */
export function isoTimeOrNull(date: Date | null): string | null {
  return date === null ? null : isoTime(date);
}
