import { realTime } from "@/lib/clock";
import { logger } from "@/lib/logger";

import { jobRuns, type TJobRun } from "./job-runs";

export interface TPeriodicJob {
  /** Runs the job now (or right after the current run, if one is under way). */
  kick(): void;
  /** Stops the timer and the wake-ups, and waits for the run under way (which `stopping()` tells to end early). */
  stop(): Promise<void>;
  /** Resolves when no run is under way. */
  idle(): Promise<void>;
}

/**
 * Runs `work` now and every `intervalMs`, and at once whenever `wakeOn` calls (work queued by this
 * process: job-wakeup.ts), never two runs at once in this process: a kick during a run makes one
 * more run right after it. A failed run is logged, never thrown: a database that is down for a
 * while only delays the work. The timer does not keep the process alive.
 */
export function runPeriodically(
  name: string,
  intervalMs: number,
  work: (stopping: () => boolean) => Promise<unknown>,
  { wakeOn }: { wakeOn?: (listener: () => void) => () => void } = {},
): TPeriodicJob {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const stopping = () => stopped;
  // Its runs and failures, for /readyz and /metrics (job-runs.ts).
  const stats: TJobRun = { intervalMs, runningSince: null, lastEndedAt: null, runs: 0, failures: 0 };
  jobRuns.set(name, stats);
  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    stats.runningSince = Date.now();
    // A run a change under atTime (the demo seed) woke is not dated by it: the job's clock is the real one.
    running = realTime(() => work(stopping))
      .then(
        () => undefined,
        (error: unknown) => {
          stats.failures += 1;
          logger.error({ error: String(error) }, `${name} failed; trying again later`);
        },
      )
      .finally(() => {
        stats.runs += 1;
        stats.runningSince = null;
        stats.lastEndedAt = Date.now();
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  const unsubscribe = wakeOn?.(run);
  run();
  return {
    kick: run,
    async stop() {
      stopped = true;
      jobRuns.delete(name);
      unsubscribe?.();
      clearInterval(timer);
      while (running) await running;
    },
    async idle() {
      while (running) await running;
    },
  };
}
