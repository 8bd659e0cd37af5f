// Gives the memory glibc holds free back to the system, every MEMORY_TRIM_INTERVAL_MS (docs/performance.md,
// "Memory": "glibc's free memory").
//
// Under load the server's C heap (glibc's main pool, `[heap]` in /proc/self/smaps) fills with
// short-lived memory, most of it in the first seconds of traffic (V8's optimizing compiler works
// in memory it frees when a function is done). Once freed it sits in the middle of the pool,
// between blocks still in use, where glibc's `free` never returns it; only `malloc_trim` does (it
// tells the kernel that the free pages anywhere in the pool may go). Measured on the app after a benchmark's
// scenarios: the pool 77 MB before one call, 14 MB after, RSS 246 → 144 MB.
//
// Node.js does not call `malloc_trim`, so it is called through Koffi (a foreign function interface
// whose prebuilt binary comes as an npm package; nothing is compiled at install). Where it cannot
// be (not Linux, not glibc, no binary for the platform) the server runs as before and says so once.
import { createRequire } from "node:module";
import { parseMillisecondsSetting } from "./milliseconds.mjs";

/**
 * Default interval. A call runs on the main thread: about 0.2 ms when there is little to give
 * back, 10 ms when it gives back 100 MB. The pool fills within a second when traffic starts
 * (measured: 26 → 73 MB, most of it free a second later), so a longer interval lets the peak
 * through (10 s: 250 MB; 1 s: 220 MB, docs/performance.md).
 */
export const DEFAULT_TRIM_INTERVAL_MS = 1_000;

/** MEMORY_TRIM_INTERVAL_MS: unset = the default, `0` = never, else 100 to 3,600,000 ms. */
export const parseTrimInterval = (raw) =>
  parseMillisecondsSetting("MEMORY_TRIM_INTERVAL_MS", raw, { byDefault: DEFAULT_TRIM_INTERVAL_MS, min: 100, max: 3_600_000 });

/** glibc's `malloc_trim(0)`, or the reason it cannot be called in this process. */
export function loadMallocTrim() {
  if (process.platform !== "linux") return { trim: null, reason: `not on Linux (${process.platform})` };
  try {
    const koffi = createRequire(import.meta.url)("koffi");
    const fn = koffi.load("libc.so.6").func("int malloc_trim(size_t pad)");
    return { trim: () => fn(0), reason: null };
  } catch (error) {
    return { trim: null, reason: `malloc_trim could not be loaded (${error instanceof Error ? error.message : String(error)})` };
  }
}

/**
 * Calls `malloc_trim(0)` every `intervalMs` (a timer that does not keep the process alive).
 * Answers `stop` and `trim` (one call now), or null when there is nothing to run (`reason` says
 * why, through `onUnavailable`).
 */
export function startMallocTrim(intervalMs, { onUnavailable = () => {} } = {}) {
  if (intervalMs === 0) return null;
  const loaded = loadMallocTrim();
  if (!loaded.trim) {
    onUnavailable(loaded.reason);
    return null;
  }
  let timer;
  const stop = () => clearInterval(timer);
  // A call that throws (it should not: the function was found) stops the trimming, once, with the
  // reason, instead of an uncaught exception in a timer.
  const trim = () => {
    try {
      return loaded.trim();
    } catch (error) {
      stop();
      onUnavailable(`malloc_trim failed (${error instanceof Error ? error.message : String(error)})`);
      return 0;
    }
  };
  timer = setInterval(trim, intervalMs);
  timer.unref();
  return { stop, trim };
}
