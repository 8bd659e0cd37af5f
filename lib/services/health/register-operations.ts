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

/** How long one readiness check answers /readyz. */
export const READINESS_REUSE_MS = 1_000;

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
  // /readyz is public: concurrent probes share one check, and a check answers for a second, so a
  // flood of probes costs the database at most one query a second.
  let recent: { at: number; check: Promise<TReadiness> } | undefined;
  const operations: TOperations = {
    readiness() {
      const now = Date.now();
      if (!recent || now - recent.at >= READINESS_REUSE_MS) recent = { at: now, check: checkReadiness({ database: openDatabase, jobs: backgroundJobs ? jobRuns : null }) };
      return recent.check;
    },
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
