// A Prisma client on its own `pg` pool (`createPrismaClient`), one pool that Prisma and the plain SQL
// statements (lib/db/query.ts) share: its server-side time limits, and its timeouts marked "busy"
// when every connection was in use. lib/db/index.ts opens the process's client with it; tests,
// scripts and the benchmark make their own.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { POOL_BUSY_MARK } from "@/lib/db/pool-busy-mark";
import { PrismaClient } from "@/lib/generated/prisma/client";

/**
 * Server-side time limits on PostgreSQL (never the embedded database, which runs one statement at
 * a time and has no other sessions to wait for): a request that would wait on a row lock longer
 * than LOCK_TIMEOUT_MS, or run a statement longer than STATEMENT_TIMEOUT_MS, fails fast and is
 * answered 503 `database_busy` with Retry-After, instead of hanging and failing later as something else.
 */
export const LOCK_TIMEOUT_MS = 5_000;
export const STATEMENT_TIMEOUT_MS = 15_000;

// On the client itself, under a registered symbol: Next's server bundles may hold this module more
// than once (instrumentation and routes), and each copy must find the pool of any client.
const POOL = Symbol.for("contracts-admin.pg-pool");

/** The `pg` pool a client made by `createPrismaClient` runs on (one pool: plain SQL and Prisma share its connections). */
export function poolOf(prisma: PrismaClient): pg.Pool {
  const pool = (prisma as unknown as { [POOL]?: pg.Pool })[POOL];
  if (!pool) throw new Error("poolOf: this Prisma client was not made by createPrismaClient");
  return pool;
}

const ONE_SESSION = Symbol.for("contracts-admin.one-session");

/**
 * Whether every connection of this pool is the same database session: the embedded database's
 * (PGlite serves its socket's connections in its one session). Statements there cannot be prepared
 * by name (`queryOne`, lib/db/query.ts).
 */
export function sharesOneSession(pool: pg.Pool): boolean {
  return (pool as unknown as { [ONE_SESSION]?: boolean })[ONE_SESSION] === true;
}

export function createPrismaClient(connectionString: string, max = 10, { serverTimeouts = false, oneSession = false } = {}): PrismaClient {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5_000,
    // No JIT: it compiles a statement whose estimated cost passes jit_above_cost, 250–300 ms for a
    // search of the contracts list (447 functions) that runs in 5 ms (docs/performance.md "Search").
    // No parallel append: the search documents' partitions would start workers for a search of a few
    // rows (7 ms of a 1 ms search; a partitioned table has no parallel_workers setting of its own).
    options: "-c jit=off -c enable_parallel_append=off",
    ...(serverTimeouts ? { lock_timeout: LOCK_TIMEOUT_MS, statement_timeout: STATEMENT_TIMEOUT_MS } : {}),
  });
  markBusyTimeouts(pool, max);
  if (oneSession) Object.defineProperty(pool, ONE_SESSION, { value: true });
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: true }),
    // Transactions queue behind each other on the embedded database: wait for a turn.
    transactionOptions: { maxWait: 15_000, timeout: 15_000 },
  });
  Object.defineProperty(prisma, POOL, { value: pool });
  return prisma;
}

type ConnectCallback = (err: Error | undefined, client?: pg.PoolClient, release?: (err?: Error) => void) => void;

/**
 * pg reports "timeout exceeded when trying to connect" both when the server does not answer and
 * when every pooled connection stayed busy. The second is marked with POOL_BUSY_MARK (read by
 * lib/api/errors.ts), so the client hears "busy", not "database not reachable".
 */
function markBusyTimeouts(pool: pg.Pool, max: number): void {
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
  const mark = (waitedForBusy: boolean, error: Error | undefined) => {
    if (waitedForBusy && error && /timeout exceeded when trying to connect/.test(error.message)) {
      error.message += ` (${POOL_BUSY_MARK})`;
    }
    return error;
  };
  (pool as { connect: unknown }).connect = (callback?: ConnectCallback) => {
    const waitedForBusy = pool.totalCount >= max && pool.idleCount === 0;
    if (callback) return connect((err, client, release) => callback(mark(waitedForBusy, err), client, release));
    return connect()!.catch((error: Error) => {
      throw mark(waitedForBusy, error);
    });
  };
}
