// When the server goes idle after traffic, it collects its garbage once and gives glibc's free
// memory back (docs/performance.md, "Memory": "Idle collection").
//
// V8 collects as a program allocates. A server that stops getting requests stops allocating, so
// the garbage of its last requests (tens of MB of old space under load) stays until the next
// traffic, and what the process holds while idle depended on when the last collection happened
// to run: 148 MB after one round of load and 208 MB after the same round again. So once no request
// has been in flight for IDLE_COLLECT_AFTER_MS (and only after some traffic), one full collection
// runs, then `malloc_trim` (server/malloc-trim.mjs). No request is being served meanwhile.
import v8 from "node:v8";
import vm from "node:vm";
import { parseMillisecondsSetting } from "./milliseconds.mjs";

/** The `msg` of the log line server.mjs writes after each idle collection (the benchmark waits for it). */
export const IDLE_COLLECTED_MSG = "idle: memory collected";

/**
 * Default: thirty seconds without a request. The collection hands the heap's emptied pages back,
 * so the next traffic starts on a small heap that must grow again, with more collections meanwhile:
 * measured on the app's log, its first half second after a collection answered about half the
 * requests of a half second later, and the next seconds 5–10 % fewer. After five seconds (the
 * default before) every pause between bursts paid that; after thirty, only a server that has
 * really gone quiet does, and it gives its memory back all the same (docs/performance.md,
 * "Idle collection").
 */
export const DEFAULT_IDLE_COLLECT_AFTER_MS = 30_000;

/** IDLE_COLLECT_AFTER_MS: unset = the default, `0` = never, else 1,000 to 3,600,000 ms. */
export const parseIdleCollectAfter = (raw) =>
  parseMillisecondsSetting("IDLE_COLLECT_AFTER_MS", raw, { byDefault: DEFAULT_IDLE_COLLECT_AFTER_MS, min: 1_000, max: 3_600_000 });

/**
 * V8's full collection as a function, without a `gc` for any other code: the flag gives every
 * context made while it is on a `gc`, so it is on only while this module's own context is made,
 * and off again before anything else runs (the way Jest's leak detector gets it).
 */
export function fullCollection() {
  v8.setFlagsFromString("--expose-gc");
  let gc;
  try {
    gc = vm.runInNewContext("gc");
  } finally {
    v8.setFlagsFromString("--no-expose-gc");
  }
  // "last-resort": V8 collects until nothing more is freed, compacting, and hands the emptied
  // pages back to the system. A regular full collection freed the objects but kept the pages
  // (measured: RSS 174 -> 176 MB regular, 173 -> 69 MB last-resort, 9 and 36 ms).
  return typeof gc === "function" ? () => gc({ type: "major", execution: "sync", flavor: "last-resort" }) : null;
}

/**
 * Runs `collect` (then `after`, given the memory use before and how long the collection took)
 * once no request has been in flight for `idleMs`, after some traffic; checks every second or
 * every `idleMs`, whichever is shorter. The server calls `requestStarted()` when a request comes
 * and `requestEnded()` when its answer is done or its connection closes (a slow upload or a long
 * answer is traffic, not idleness). A failure (e.g. `process.memoryUsage()` without a free file
 * descriptor) goes to `onError` and the next idle period tries again. Null when off (`idleMs` 0)
 * or nothing can collect.
 */
export function startIdleCollector(idleMs, { collect: given, after = () => {}, onError = () => {}, now = () => performance.now() } = {}) {
  if (idleMs === 0) return null;
  const collect = given ?? fullCollection();
  if (!collect) return null;
  let lastActivity = now();
  let inFlight = 0;
  let trafficSinceCollect = false;
  const timer = setInterval(() => {
    if (!trafficSinceCollect || inFlight > 0 || now() - lastActivity < idleMs) return;
    trafficSinceCollect = false;
    try {
      const before = process.memoryUsage();
      const started = performance.now();
      collect();
      after({ before, elapsedMs: performance.now() - started });
    } catch (error) {
      onError(error);
    }
  }, Math.min(1_000, idleMs));
  timer.unref();
  return {
    requestStarted() {
      inFlight++;
      lastActivity = now();
      trafficSinceCollect = true;
    },
    requestEnded() {
      if (inFlight > 0) inFlight--;
      lastActivity = now();
    },
    stop: () => clearInterval(timer),
  };
}
