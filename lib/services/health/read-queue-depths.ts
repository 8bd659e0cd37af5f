import type { PrismaClient } from "@/lib/db";

/** One queue of background work: how many rows wait, and how long the longest-due one has been due. */
export interface TQueueDepth {
  queue: string;
  depth: number;
  /** Seconds since the earliest due row became due; null when none is due (or the table keeps no time). */
  oldestAgeSeconds: number | null;
}

/** At most this long per scrape: a slow database leaves the queue gauges out, not /metrics hanging. */
const STATEMENT_TIMEOUT_MS = 2_000;

/**
 * The depth and lag of each job queue, read at scrape time (/metrics) in one statement, each part on
 * an index its job claims by: the outbox (`mail`), webhook deliveries, seals (waiting or claimed),
 * pending contracts past their signing period (`overdue`), signed contracts whose lifecycle is due,
 * internal reminders due, and the count deltas not folded yet. The participants' signing reminders
 * are a condition on every pending contract, not a queue: not counted here (their job's runs and
 * failures are).
 */
export async function readQueueDepths({ db }: { db: PrismaClient }): Promise<TQueueDepth[]> {
  const age = (column: string) => `EXTRACT(EPOCH FROM now() - min(${column}))::float8`;
  const leased = (table: string, claimed: string, queue: string) =>
    `SELECT '${queue}' AS queue, count(*)::int AS depth,
            EXTRACT(EPOCH FROM now() - min(next_attempt_at) FILTER (WHERE status = 'queued' AND next_attempt_at <= now()))::float8 AS age
       FROM ${table} WHERE status IN ('queued', '${claimed}')`;
  // Names and fragments are SQL written here, never input.
  const sql = [
    leased("email_messages", "sending", "mail"),
    leased("webhook_deliveries", "sending", "webhook_deliveries"),
    leased("contract_seals", "running", "seals"),
    `SELECT 'overdue', count(*)::int, ${age("signing_period_expires_at")} FROM contracts WHERE state = 'pending' AND signing_period_expires_at <= now()`,
    `SELECT 'lifecycle', count(*)::int, ${age("lifecycle_due_at")} FROM contracts WHERE lifecycle_due_at <= now() AND state = 'signed'`,
    `SELECT 'contract_reminders', count(*)::int, ${age("due_at")} FROM contract_reminders WHERE sent_at IS NULL AND due_at <= now()`,
    `SELECT 'count_deltas', count(*)::int, NULL::float8 FROM contract_count_deltas`,
  ].join("\nUNION ALL\n");
  const [, rows] = await db.$transaction([
    db.$executeRawUnsafe(`SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`),
    db.$queryRawUnsafe<{ queue: string; depth: number; age: number | null }[]>(sql),
  ]);
  return rows.map((row) => ({ queue: row.queue, depth: row.depth, oldestAgeSeconds: row.age === null ? null : Math.max(0, row.age) }));
}
