import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, expect, test } from "vitest";

// An embedded database whose opening failed after it started (here: the open hook throws) is
// stopped before the failure is answered: its socket is gone, nothing answers on it, and the next
// attempt opens the same data folder again (one owner per folder; lib/db/index.ts `open`).
const root = mkdtempSync(path.join(os.tmpdir(), "contracts-open-failure-"));
const socketDir = path.join(root, "socket");
afterAll(async () => {
  const state = (globalThis as { __contractsDb?: { prisma?: { $disconnect(): Promise<void> }; stopEmbedded?: () => Promise<void> } }).__contractsDb;
  await state?.prisma?.$disconnect();
  await state?.stopEmbedded?.();
  rmSync(root, { recursive: true, force: true });
});

test("a failed opening stops the embedded database it started, and the next attempt opens it again", { timeout: 120_000 }, async () => {
  delete process.env.DATABASE_URL;
  process.env.PGLITE_DATA_DIR = path.join(root, "data");
  process.env.EMBEDDED_DB_SOCKET_DIR = socketDir;
  const { getPrisma, onDatabaseOpen, databaseStatus } = await import("@/lib/db");
  let failNext = true;
  onDatabaseOpen(async () => {
    if (failNext) throw new Error("the open hook failed on purpose");
  });

  await expect(getPrisma()).rejects.toThrow("the open hook failed on purpose");
  expect(databaseStatus()).toBe("failed");
  // Stopped: no socket file, and nothing accepts a connection in that folder.
  expect(existsSync(path.join(socketDir, ".s.PGSQL.5432"))).toBe(false);
  const client = new pg.Client({ host: socketDir, user: "postgres", database: "postgres", connectionTimeoutMillis: 2_000 });
  client.on("error", () => undefined);
  await expect(client.connect()).rejects.toThrow();
  await client.end().catch(() => undefined);

  // After the back-off (0.5 s at first) the same folder opens again and answers.
  failNext = false;
  await new Promise((resolve) => setTimeout(resolve, 600));
  const prisma = await getPrisma();
  expect(databaseStatus()).toBe("ready");
  expect(await prisma.$queryRawUnsafe<{ one: number }[]>("SELECT 1 AS one")).toEqual([{ one: 1 }]);
});
