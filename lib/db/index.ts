// The database of this process: its one client, opened lazily at first use (a PostgreSQL server's,
// or the embedded one's), and the types everything that talks to the database names (`PrismaClient`,
// and `Tx`, the client inside a transaction). The client's `pg` pool is made in lib/db/pool.ts,
// statements sent straight to it are run by lib/db/query.ts, and their SQL is written with
// lib/db/sql.ts.
import v8 from "node:v8";
import pg from "pg";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createPrismaClient } from "@/lib/db/pool";
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
 * work itself: instrumentation.ts adds the demo seed for the embedded database (lib/seed/demo.ts).
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
