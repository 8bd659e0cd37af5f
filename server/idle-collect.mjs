// When the server goes idle after traffic, it collects its garbage once and gives glibc's free
// memory back (docs/performance.md, "Memory": "Idle collection").
//
// V8 collects as a program allocates. A server that stops getting requests stops allocating, so
// the garbage of its last requests (tens of MB of old space under load) stays until the next
// traffic, and what the process holds while idle depended on when the last collection happened
// to run: 148 MB after one round of load and 208 MB after the same round again. So after
// IDLE_COLLECT_AFTER_MS without a request (and only after some traffic), one full collection runs,
// then `malloc_trim` (server/malloc-trim.mjs). Nobody is waiting: no request came for that long.
import v8 from "node:v8";
import vm from "node:vm";
import { parseMillisecondsSetting } from "./milliseconds.mjs";

/** Default: five seconds without a request. */
export const DEFAULT_IDLE_COLLECT_AFTER_MS = 5_000;

/** IDLE_COLLECT_AFTER_MS: unset = the default, `0` = never, else 1,000 to 3,600,000 ms. */
export const parseIdleCollectAfter = (raw) =>
  parseMillisecondsSetting("IDLE_COLLECT_AFTER_MS", raw, { byDefault: DEFAULT_IDLE_COLLECT_AFTER_MS, min: 1_000, max: 3_600_000 });

/**
 * V8's full collection as a function, without a global `gc` in the app's own context: the flag
 * makes every new context get one, and only this module's context is made after it (the way
 * Jest's leak detector gets it).
 */
export function fullCollection() {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  return typeof gc === "function" ? () => gc({ type: "major", execution: "sync" }) : null;
}

/**
 * Runs `collect` (then `after`, given the memory use before and how long the collection took)
 * once the server has had no request for `idleMs`, after some traffic; checks every second or every `idleMs`, whichever is shorter. `noteRequest()` is called
 * for every request (two assignments). Null when off (`idleMs` 0) or nothing can collect.
 */
export function startIdleCollector(idleMs, { collect: given, after = () => {}, now = () => performance.now() } = {}) {
  if (idleMs === 0) return null;
  const collect = given ?? fullCollection();
  if (!collect) return null;
  let lastRequest = now();
  let trafficSinceCollect = false;
  const timer = setInterval(() => {
    if (!trafficSinceCollect || now() - lastRequest < idleMs) return;
    trafficSinceCollect = false;
    const before = process.memoryUsage();
    const started = performance.now();
    collect();
    after({ before, elapsedMs: performance.now() - started });
  }, Math.min(1_000, idleMs));
  timer.unref();
  return {
    noteRequest() {
      lastRequest = now();
      trafficSinceCollect = true;
    },
    stop: () => clearInterval(timer),
  };
}
