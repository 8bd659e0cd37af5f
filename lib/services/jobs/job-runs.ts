// What each background job of this process last did, for /readyz ("the jobs are alive") and
// /metrics (runs and failures by job): written by runPeriodically, read at probe and scrape time.
// On globalThis, like the jobs themselves, so that dev reloads and server.mjs see one map.

export interface TJobRun {
  intervalMs: number;
  /** When the run under way started (ms since the epoch); null between runs. */
  runningSince: number | null;
  /** When the last run ended (ms since the epoch), whether it failed or not; null before the first. */
  lastEndedAt: number | null;
  runs: number;
  failures: number;
}

const g = globalThis as { __contractsJobRuns?: Map<string, TJobRun> };

/** Each job by the name it runs under (runPeriodically's `name`). */
export const jobRuns: Map<string, TJobRun> = (g.__contractsJobRuns ??= new Map());
