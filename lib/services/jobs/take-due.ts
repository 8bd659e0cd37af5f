// Work done inside the transaction that takes it (docs/architecture.md "Background work"): overdue
// contracts, participant reminders, lifecycle turns, internal reminders, count folding. What is due
// is the rows' own state (no queue row): each batch's transaction runs the job's due statement,
// which takes at most `batch` rows FOR UPDATE SKIP LOCKED, so two instances never take the same
// row and a row a request holds waits for the next round; the handler acts on those rows and marks
// them no longer due in that same transaction. Exactly once: the work and its mark commit together
// or not at all (a throw or a crash rolls the batch back, and its rows stay due). Each job keeps its
// own rules (what is due, in what order, what it writes) in its own file. Work done after a commit,
// on a lease, is claim-due.ts.
import type { PrismaClient, Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

export interface TTakeDue<TRow> {
  /** At most this many rows per batch (one transaction). */
  batch: number;
  /** The due statement of a batch: ordered, `LIMIT batch`, `FOR UPDATE … SKIP LOCKED`; may act itself (UPDATE/DELETE … RETURNING). */
  due: (batch: number) => Prisma.Sql;
  /** Acts on the batch's rows in its transaction. */
  handle?: (tx: Tx, rows: TRow[]) => Promise<unknown>;
  /** Batches in one call at most (default 100); a batch that took fewer than `batch` rows ends the call. */
  rounds?: number;
  /** How many rows a batch took, when its statement answers otherwise than a row for each (default: the rows). */
  taken?: (rows: TRow[]) => number;
  /** Checked before each batch: when true (the process is stopping), the call ends; what is left stays due. */
  stopping?: () => boolean;
}

/** Takes and handles due rows, a batch per transaction, until a batch is not full; answers every batch's rows. */
export async function takeDue<TRow>(db: PrismaClient, o: TTakeDue<TRow>): Promise<TRow[]> {
  const all: TRow[] = [];
  const rounds = o.rounds ?? 100;
  for (let round = 0; round < rounds && !o.stopping?.(); round++) {
    const rows = await db.$transaction(async (tx: Tx) => {
      const due = await tx.$queryRaw<TRow[]>(o.due(o.batch));
      if (o.handle && due.length > 0) await o.handle(tx, due);
      return due;
    });
    all.push(...rows);
    if ((o.taken ? o.taken(rows) : rows.length) < o.batch) break;
  }
  return all;
}
