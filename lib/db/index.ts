import v8 from "node:v8";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { POOL_BUSY_MARK } from "@/lib/db/pool-busy-mark";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";

export type { PrismaClient } from "@/lib/generated/prisma/client";
/** The client inside `prisma.$transaction(async (tx) => …)`. */
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export type DatabaseStatus = "idle" | "starting" | "ready" | "failed";

interface DbState {
  status: DatabaseStatus;
  ready?: Promise<PrismaClient>;
  /** After a failed opening: no new attempt before this time (ms); the failure is answered meanwhile. */
  retryAt?: number;
  retryDelayMs?: number;
  prisma?: PrismaClient;
  error?: unknown;
  stopEmbedded?: () => Promise<void>;
  onOpen?: TOpenHook;
}

/**
 * Work to do on a freshly opened database before anyone gets the client. The opener owns no such
 * work itself: instrumentation.ts adds the demo seed for the embedded database (lib/db/seed/demo.ts).
 */
export type TOpenHook = (prisma: PrismaClient, info: { embedded: boolean }) => Promise<unknown>;

// One per process, kept on globalThis so Next's dev reloads reuse it instead of opening another
// database (an embedded one cannot be opened twice).
const g = globalThis as { __contractsDb?: DbState };
const state: DbState = (g.__contractsDb ??= { status: "idle" });

/** Waits between attempts to open the database after a failure: 0.5 s, doubling up to 8 s. */
const FIRST_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 8_000;

/**
 * The database is opened lazily, on the first call, never at import or during `next build`. After
 * a failure, calls answer that failure until a back-off has passed (every request, the background
 * jobs and readiness probes all ask), then the next call tries again.
 */
export function getPrisma(): Promise<PrismaClient> {
  if (state.prisma) return Promise.resolve(state.prisma);
  if (!state.ready && state.retryAt !== undefined && Date.now() < state.retryAt) return Promise.reject(state.error);
  state.ready ??= open().then(
    (prisma) => {
      state.prisma = prisma;
      state.status = "ready";
      state.retryAt = state.retryDelayMs = undefined;
      return prisma;
    },
    (error: unknown) => {
      // Let a later request try again (e.g. the server was still starting).
      state.status = "failed";
      state.error = error;
      state.ready = undefined;
      state.retryDelayMs = Math.min(MAX_RETRY_DELAY_MS, state.retryDelayMs === undefined ? FIRST_RETRY_DELAY_MS : state.retryDelayMs * 2);
      state.retryAt = Date.now() + state.retryDelayMs;
      throw error;
    },
  );
  return state.ready;
}

/** The client once the database is open (what `getPrisma` resolves to), without a promise; else undefined. */
export function readyPrisma(): PrismaClient | undefined {
  return state.prisma;
}

/** Sets the hook the next opening runs (one per process; kept across dev reloads like the client). */
export function onDatabaseOpen(hook: TOpenHook): void {
  state.onOpen = hook;
}

export function databaseStatus(): DatabaseStatus {
  return state.status;
}

async function open(): Promise<PrismaClient> {
  state.status = "starting";
  const { DATABASE_URL, PGLITE_DATA_DIR, EMBEDDED_DB_SOCKET_DIR } = env();
  const { applyMigrationsInChildProcess } = await import("@/lib/db/migrate");
  if (DATABASE_URL) {
    // Prisma's query compiler is WebAssembly (the schema engine too, but it runs in a child
    // process: lib/db/migrate.ts): keep it on V8's baseline compiler. Its optimizing tier
    // recompiled hot functions on background threads and left 30–40 MB of RSS behind, for nothing
    // measurable per request (query plans are cached). Not for the embedded database, whose
    // PostgreSQL is WebAssembly too and needs the fast code. See docs/performance.md, "Memory".
    v8.setFlagsFromString("--no-wasm-tier-up");
    // A server that does not answer fails here, cheaply, before a migration process is started.
    await checkReachable(DATABASE_URL);
    // In a child process: Prisma's schema engine never takes memory in this one (lib/db/migrate.ts).
    await applyMigrationsInChildProcess(DATABASE_URL);
    const prisma = createPrismaClient(DATABASE_URL, 10, { serverTimeouts: true });
    await state.onOpen?.(prisma, { embedded: false });
    return prisma;
  }
  const { startEmbeddedDatabase } = await import("@/lib/db/embedded");
  const embedded = await startEmbeddedDatabase(PGLITE_DATA_DIR, { socketDir: EMBEDDED_DB_SOCKET_DIR });
  state.stopEmbedded = embedded.stop;
  let prisma: PrismaClient | undefined;
  try {
    await applyMigrationsInChildProcess(embedded.url);
    prisma = createPrismaClient(embedded.url, 8, { oneSession: true });
    await state.onOpen?.(prisma, { embedded: true });
    return prisma;
  } catch (error) {
    // The next attempt opens the embedded database again: this one must be closed first (one
    // owner per data folder).
    await prisma?.$disconnect().catch(() => undefined);
    state.stopEmbedded = undefined;
    await embedded.stop().catch(() => undefined);
    throw error;
  }
}

/** Connects once and disconnects: rejects with the driver's error when the server does not answer. */
async function checkReachable(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  client.on("error", () => undefined); // a connection dropped after the check is of no interest
  try {
    await client.connect();
  } finally {
    await client.end().catch(() => undefined);
  }
}

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
 * by name (lib/db/sql.ts).
 */
export function sharesOneSession(pool: pg.Pool): boolean {
  return (pool as unknown as { [ONE_SESSION]?: boolean })[ONE_SESSION] === true;
}

export function createPrismaClient(connectionString: string, max = 10, { serverTimeouts = false, oneSession = false } = {}): PrismaClient {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5_000,
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
