import type { PrismaClient } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { takeDue } from "@/lib/services/jobs/take-due";

/**
 * Moves the contract count deltas the triggers on `contracts` inserted into the per-workspace,
 * per-state totals (`contract_counts`), in one statement, so the deltas stay few and the list's
 * count reads a handful of rows (docs/performance.md "The list's count"). Totals plus the deltas
 * not folded yet are always the exact count: a delta leaves its table in the same transaction as it
 * joins its total, and a reader's snapshot sees both or neither.
 *
 * Safe with several instances on one database: the deltas are taken with `FOR UPDATE SKIP LOCKED`,
 * so two folds at once take different deltas, and each locks the totals it adds to in one order
 * (workspace, state), so they never deadlock. Returns how many deltas it folded (at most `batch` a
 * round, `rounds` rounds at most).
 */
export async function foldContractCounts({ db, batch = 10_000, rounds = 1, stopping }: { db: PrismaClient; batch?: number; rounds?: number; stopping?: () => boolean }): Promise<number> {
  // A batch per transaction (takeDue), each one statement answering how many deltas it folded; a
  // batch that folded fewer than `batch` ends the run.
  const batches = await takeDue<{ folded: number }>(db, { batch, rounds, stopping, due: foldStatement, taken: ([row]) => row?.folded ?? 0 });
  return batches.reduce((total, row) => total + row.folded, 0);
}

function foldStatement(batch: number): Prisma.Sql {
  return Prisma.sql`
    WITH taken AS (
      DELETE FROM contract_count_deltas
      WHERE id IN (SELECT id FROM contract_count_deltas ORDER BY id LIMIT ${batch} FOR UPDATE SKIP LOCKED)
      RETURNING workspace_id, state, n
    ),
    sums AS (
      SELECT workspace_id, state, sum(n)::bigint AS n, count(*) AS deltas FROM taken GROUP BY workspace_id, state
    ),
    added AS (
      INSERT INTO contract_counts (workspace_id, state, n)
      SELECT workspace_id, state, n FROM sums ORDER BY workspace_id, state
      ON CONFLICT (workspace_id, state) DO UPDATE SET n = contract_counts.n + EXCLUDED.n
    )
    SELECT COALESCE(sum(deltas), 0)::int AS folded FROM sums`;
}

/**
 * Sets the totals to the contracts there are and drops every delta: for a bulk load that bypassed
 * the triggers (the benchmark's data set is loaded with them off). Run it in the loading
 * transaction, with no other writer of contracts.
 */
export const RECOUNT_CONTRACTS_SQL = [
  "DELETE FROM contract_count_deltas",
  "DELETE FROM contract_counts",
  "INSERT INTO contract_counts (workspace_id, state, n) SELECT workspace_id, state, count(*) FROM contracts GROUP BY workspace_id, state",
];
