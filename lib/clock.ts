// The wall clock for what runs on every request (log lines, the rate limit's window, the API
// token's last use), read without `Date`: in the server Next wraps `Date`, and every `Date.now()`
// and `new Date()` first asks its async storage whether a prerender is running. `performance.now()`
// is not wrapped; its offset from the wall clock is taken from `Date.now()` once a second, so a
// system clock that is set or stepped is followed within a second.

const RESYNC_MS = 1_000;
let offset = Date.now() - performance.now();
let resyncAt = performance.now() + RESYNC_MS;

/** Milliseconds since the epoch, as `Date.now()` (within a millisecond). */
export function nowMs(): number {
  const t = performance.now();
  if (t >= resyncAt) {
    offset = Date.now() - t;
    resyncAt = t + RESYNC_MS;
  }
  return Math.floor(t + offset);
}

let isoSecond = Number.NaN;
let isoPrefix = "";

/** `new Date(ms).toISOString()` for a time since 1970, with its date and second written once per second. */
export function isoTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = new Date(second * 1000).toISOString().slice(0, 20); // `YYYY-MM-DDTHH:MM:SS.`
  }
  const milli = ms - second * 1000;
  return `${isoPrefix}${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}Z`;
}
