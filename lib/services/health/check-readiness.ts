import type { PrismaClient } from "@/lib/db";
import { isChecksumOf, readShippedMigrations, type TShippedMigration } from "@/lib/db/migration-files";
import { poolOf } from "@/lib/db/pool";
import type { TJobRun } from "@/lib/services/jobs/job-runs";
import { logger } from "@/lib/logger";

/** Each check: "ok", or a sentence naming what is not ready. */
export interface TReadiness {
  ready: boolean;
  checks: { database: string; migrations: string; jobs: string };
}

/** A probe answers within this, whatever the database does. */
const CHECK_TIMEOUT_MS = 2_000;
/** A job is late once its last run ended this long ago: a few of its intervals, and some slack for a slow run. */
const lateAfterMs = (intervalMs: number) => 3 * intervalMs + 60_000;
/** A single run may take this long (a backlog of seals) before the job counts as stuck. */
const STUCK_AFTER_MS = 10 * 60_000;

/** The build's migrations, read once (its files do not change while it runs; a failed read is tried again). */
let shipped: Promise<TShippedMigration[]> | undefined;
/** Every shipped migration was seen applied (they are never taken back while the process runs). */
let migrationsSeenApplied = false;
/** A migration changed since it was applied was logged (once a process). */
let changedLogged = false;

/**
 * Readiness (/readyz): the database answers, every migration of prisma/migrations is applied, and
 * (when this instance runs them) each background job ran within a few of its intervals. A migration
 * whose file changed since it was applied is named, and logged, but leaves the instance ready: the
 * database is shared, so every instance would go out at once, and only a person can reconcile the two.
 */
export async function checkReadiness({
  database,
  jobs,
  now = Date.now(),
}: {
  /** The process's database, or the reason it is not open ("starting", its error). */
  database: () => Promise<PrismaClient>;
  /** The jobs this process runs (job-runs.ts), or null when BACKGROUND_JOBS is off. */
  jobs: ReadonlyMap<string, TJobRun> | null;
  now?: number;
}): Promise<TReadiness> {
  const checks = { database: "ok", migrations: "ok", jobs: jobs === null ? "ok (off on this instance)" : "ok" };
  const migrations = await (shipped ??= readShippedMigrations().catch((error: unknown) => {
    shipped = undefined;
    throw error;
  })).catch(() => null);
  let db: PrismaClient | undefined;
  try {
    db = await withTimeout(database(), "the database did not open in time");
    const rows = await withTimeout(
      db.$queryRawUnsafe<{ name: string; checksum: string }[]>(`SELECT migration_name AS name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`),
      "the database did not answer in time",
    );
    const applied = new Map(rows.map((row) => [row.name, row.checksum]));
    if (migrations === null) checks.migrations = "unknown (prisma/migrations cannot be read)";
    else {
      const missing = migrations.filter((m) => !applied.has(m.name)).map((m) => m.name);
      const changed = migrations.filter((m) => applied.has(m.name) && !isChecksumOf(m, applied.get(m.name)!)).map((m) => m.name);
      const told = changed.length > 0 ? `changed since applied: ${changed.join(", ")}` : null;
      if (missing.length > 0) checks.migrations = [`not applied: ${missing.join(", ")}`, ...(told ? [told] : [])].join("; ");
      else {
        migrationsSeenApplied = true;
        if (told) checks.migrations = `ok (${told})`;
      }
      if (told && !changedLogged) {
        changedLogged = true;
        logger.warn({ migrations: changed }, "applied migrations differ from this build's files; the database's schema is as the earlier files left it");
      }
    }
  } catch {
    if (db !== undefined && poolBusy(db)) {
      // Reachable, every connection at work (a long lock, a burst): this instance still serves,
      // and taking it out would take out every instance on the same database at once.
      checks.database = `ok (busy: no connection free within ${seconds(CHECK_TIMEOUT_MS)})`;
      checks.migrations = migrationsSeenApplied ? "ok" : "unknown (the database is busy)";
    } else {
      // Public: the driver's message (addresses, names) stays out of the answer.
      checks.database = "not reachable";
      checks.migrations = "unknown (no database)";
    }
  }
  if (jobs !== null) {
    const late: string[] = [];
    for (const [name, run] of jobs) {
      if (run.runningSince !== null && now - run.runningSince > STUCK_AFTER_MS) late.push(`${name} (one run for ${seconds(now - run.runningSince)})`);
      else if (run.runningSince === null && run.lastEndedAt !== null && now - run.lastEndedAt > lateAfterMs(run.intervalMs)) {
        late.push(`${name} (last ran ${seconds(now - run.lastEndedAt)} ago, every ${seconds(run.intervalMs)})`);
      }
    }
    if (jobs.size === 0) checks.jobs = "not started";
    else if (late.length > 0) checks.jobs = `late: ${late.join(", ")}`;
  }
  return { ready: Object.values(checks).every((check) => check.startsWith("ok")), checks };
}

/** Every connection of the pool is open and in use, and queries wait for one. */
function poolBusy(db: PrismaClient): boolean {
  const pool = poolOf(db);
  return pool.waitingCount > 0 && pool.idleCount === 0 && pool.totalCount >= (pool.options.max ?? 10);
}

function withTimeout<T>(promise: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
