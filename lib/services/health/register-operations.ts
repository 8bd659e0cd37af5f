// What server.mjs (outside the Next bundle) asks the app at probe and scrape time: /readyz, and the
// queue, pool and job figures of /metrics. Handed over on globalThis, like lib/shutdown.ts's hooks.
import type { PrismaClient } from "@/lib/db";
import { poolOf } from "@/lib/db/pool";
import { jobRuns, type TJobRun } from "@/lib/services/jobs/job-runs";

import { checkReadiness, type TReadiness } from "./check-readiness";
import { readQueueDepths, type TQueueDepth } from "./read-queue-depths";

export interface TOperations {
  readiness(): Promise<TReadiness>;
  /** Null while the database is not open. */
  queues(): Promise<TQueueDepth[] | null>;
  /** The pg pool's connections; null while the database is not open. */
  pool(): { total: number; idle: number; waiting: number; max: number } | null;
  jobs(): ReadonlyMap<string, TJobRun>;
}

/** Makes the operations available to server.mjs (`globalThis.__contractsOperations`). */
export function registerOperations({
  database,
  openDatabase,
  backgroundJobs,
}: {
  /** The open database, without waiting (lib/db readyPrisma). */
  database: () => PrismaClient | undefined;
  /** Opens it, or answers why not (lib/db getPrisma). */
  openDatabase: () => Promise<PrismaClient>;
  backgroundJobs: boolean;
}): void {
  const operations: TOperations = {
    readiness: () => checkReadiness({ database: openDatabase, jobs: backgroundJobs ? jobRuns : null }),
    async queues() {
      const db = database();
      return db ? readQueueDepths({ db }) : null;
    },
    pool() {
      const db = database();
      if (!db) return null;
      const pool = poolOf(db);
      return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 };
    },
    jobs: () => jobRuns,
  };
  (globalThis as { __contractsOperations?: TOperations }).__contractsOperations = operations;
}
