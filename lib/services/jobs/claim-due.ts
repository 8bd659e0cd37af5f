// Work queued in a table and done after a commit (docs/architecture.md "Background work"): mail,
// sealed copies, webhook deliveries. A row waits `queued` until its `next_attempt_at`. A claim takes
// due rows, and claimed rows whose lease ran out (their claimer died), FOR UPDATE SKIP LOCKED, so
// two instances never take the same row; it counts the attempt and sets the lease in the same
// statement, which commits at once. The work happens after that commit, and every later write of
// the row names the claim (its key, still claimed, the same attempt): a run whose lease ran out and
// whose row was claimed again elsewhere changes nothing. Each job keeps its own rules (what is due
// first, retries, what a finished row records) in its own file.
import type { PrismaClient } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/** A table of leased work: its rows have status, attempts, lease_until, next_attempt_at and last_error. */
export interface TLeaseQueue {
  table: "email_messages" | "contract_seals" | "webhook_deliveries";
  /** The key column. */
  key: "id" | "contract_id";
  /** The status of a claimed row (`queued` is the waiting one). */
  claimed: "sending" | "running";
}

export interface TClaimOptions {
  batchSize: number;
  leaseMs: number;
  /** The order in which due rows are taken (the candidate row is `q`). */
  order: string;
  /** What the claim answers (the claimed row is `d`; the `from` table's alias too). */
  returning: string;
  /** More columns the claim sets (the row is `d`). */
  set?: string;
  /** A further condition on the candidate row `q`. */
  where?: string;
  /** A table read beside the claimed row, for `returning`: its name with an alias, and how it joins `d`. */
  from?: { table: string; on: string };
}

/** Claims up to `batchSize` due rows and commits the claim; answers `returning` for each. */
export async function claimDue<T>(db: PrismaClient, queue: TLeaseQueue, o: TClaimOptions): Promise<T[]> {
  // Names and fragments are SQL the code writes (never input); the lease and the batch are parameters.
  const [table, key, claimed] = [Prisma.raw(queue.table), Prisma.raw(queue.key), Prisma.raw(`'${queue.claimed}'`)];
  return db.$queryRaw<T[]>`
    UPDATE ${table} d
       SET status = ${claimed}, attempts = d.attempts + 1, lease_until = now() + make_interval(secs => ${o.leaseMs / 1000}::float8)${o.set ? Prisma.raw(`, ${o.set}`) : Prisma.empty}
      ${o.from ? Prisma.raw(`FROM ${o.from.table} WHERE ${o.from.on} AND`) : Prisma.raw("WHERE")} d.${key} IN (
        SELECT q.${key} FROM ${table} q
         WHERE ((q.status = 'queued' AND q.next_attempt_at <= now()) OR (q.status = ${claimed} AND q.lease_until < now()))${o.where ? Prisma.raw(` AND ${o.where}`) : Prisma.empty}
         ORDER BY ${Prisma.raw(o.order)}
         LIMIT ${o.batchSize}
         FOR UPDATE OF q SKIP LOCKED)
    RETURNING ${Prisma.raw(o.returning)}`;
}

/** A claim as its later writes name it: the row's key and the attempt the claim counted. */
export interface TClaim {
  key: number;
  attempts: number;
}
