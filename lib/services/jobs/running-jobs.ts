import type { TPeriodicJob } from "./run-periodically";

/** This process's background jobs while they run (on globalThis, so dev reloads keep one set). */
export const runningJobs = globalThis as { __contractsJobs?: TPeriodicJob[] };
