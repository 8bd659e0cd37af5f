import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";

export type { PrismaClient } from "@/lib/generated/prisma/client";
/** The client inside `prisma.$transaction(async (tx) => …)`. */
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export type DatabaseStatus = "idle" | "starting" | "ready" | "failed";

interface DbState {
  status: DatabaseStatus;
  ready?: Promise<PrismaClient>;
  prisma?: PrismaClient;
  error?: unknown;
  stopEmbedded?: () => Promise<void>;
}

// One per process, kept on globalThis so Next's dev reloads reuse it instead of opening another
// database (an embedded one cannot be opened twice).
const g = globalThis as { __contractsDb?: DbState };
const state: DbState = (g.__contractsDb ??= { status: "idle" });

/** The database is opened lazily, on the first call, never at import or during `next build`. */
export function getPrisma(): Promise<PrismaClient> {
  if (state.prisma) return Promise.resolve(state.prisma);
  state.ready ??= open().then(
    (prisma) => {
      state.prisma = prisma;
      state.status = "ready";
      return prisma;
    },
    (error: unknown) => {
      // Let the next request try again (e.g. the server was still starting).
      state.status = "failed";
      state.error = error;
      state.ready = undefined;
      throw error;
    },
  );
  return state.ready;
}

export function databaseStatus(): DatabaseStatus {
  return state.status;
}

async function open(): Promise<PrismaClient> {
  state.status = "starting";
  const { DATABASE_URL, PGLITE_DATA_DIR, EMBEDDED_DB_PORT } = env();
  const { applyMigrations } = await import("@/lib/db/schema-engine");
  let url = DATABASE_URL;
  if (!url) {
    const { startEmbeddedDatabase } = await import("@/lib/db/embedded");
    const embedded = await startEmbeddedDatabase(PGLITE_DATA_DIR, EMBEDDED_DB_PORT);
    state.stopEmbedded = embedded.stop;
    url = embedded.url;
  }
  await applyMigrations(url);
  const prisma = createPrismaClient(url, DATABASE_URL ? 10 : 8);
  if (!DATABASE_URL) {
    // The embedded database is the demo: fill it on its first start.
    const { seedIfEmpty } = await import("@/lib/db/seed/demo");
    await seedIfEmpty(prisma);
  }
  return prisma;
}

export function createPrismaClient(connectionString: string, max = 10): PrismaClient {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString, max, connectionTimeoutMillis: 5_000 }),
    // Transactions queue behind each other on the embedded database: wait for a turn.
    transactionOptions: { maxWait: 15_000, timeout: 15_000 },
  });
}
