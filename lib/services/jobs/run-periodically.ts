import { logger } from "@/lib/logger";

export interface TPeriodicJob {
  /** Runs the job now (or right after the current run, if one is under way). */
  kick(): void;
  stop(): Promise<void>;
}

/**
 * Runs `work` every `intervalMs`, never two runs at once in this process, and logs (never throws)
 * a failed run: a database that is down for a while only delays the work. The timer does not keep
 * the process alive.
 */
export function runPeriodically(name: string, intervalMs: number, work: () => Promise<unknown>): TPeriodicJob {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = work()
      .then(
        () => undefined,
        (error: unknown) => logger.error(`${name} failed; trying again later`, { error: String(error) }),
      )
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  setImmediate(run);
  return {
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
