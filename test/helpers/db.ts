import pg from "pg";
import type { PrismaClient } from "@/lib/db";
import { createPrismaClient, poolOf } from "@/lib/db/pool";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { applyMigrations } from "@/lib/db/schema-engine";

export interface TestDatabase {
  prisma: PrismaClient;
  url: string;
  kind: "pglite" | "postgres";
  cleanup(): Promise<void>;
}

/** Which database the suite runs on: `TEST_DB=postgres` for a real server, else embedded PGlite. */
export function testDatabaseKind(): "pglite" | "postgres" {
  return process.env.TEST_DB === "postgres" ? "postgres" : "pglite";
}

/** The server the postgres half uses; each test file gets its own fresh database on it. */
export function testServerUrl(): string {
  return process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
}

/** A fresh, migrated, empty database of its own for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseKind() === "pglite") {
    const embedded = await startEmbeddedDatabase("memory://");
    await applyMigrations(embedded.url);
    const prisma = createPrismaClient(embedded.url, 8, { oneSession: true });
    return {
      prisma,
      url: embedded.url,
      kind: "pglite",
      async cleanup() {
        await disconnect(prisma);
        await embedded.stop();
      },
    };
  }
  const { url, drop } = await createServerDatabase();
  await applyMigrations(url);
  const prisma = createPrismaClient(url, 10);
  return {
    prisma,
    url,
    kind: "postgres",
    async cleanup() {
      await disconnect(prisma);
      await drop();
    },
  };
}

/**
 * Prisma ends the pool under it only if it used it; a test that read only through plain SQL
 * (`queryOne` in lib/db/query.ts) would otherwise leave connections open for the drop to terminate.
 */
async function disconnect(prisma: PrismaClient): Promise<void> {
  await prisma.$disconnect();
  const pool = poolOf(prisma) as pg.Pool & { ending?: boolean };
  if (!pool.ending) await pool.end();
}

/** An empty database on the test server, and how to drop it. */
export async function createServerDatabase(prefix = "contracts_test") {
  const server = new URL(testServerUrl());
  const name = `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: server.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
