import { chmod, mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/lib/db/embedded";

// The embedded database is one PostgreSQL session behind a socket server shared by every pool
// connection; concurrent queries must still each get their own answer.
let embedded: EmbeddedDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  embedded = await startEmbeddedDatabase("memory://");
  pool = new pg.Pool({ connectionString: embedded.url, max: 6 });
});
afterAll(async () => {
  await pool.end();
  await embedded.stop();
});

test("reads queued behind an open transaction get their own rows", async () => {
  const wrong: string[] = [];
  for (let round = 0; round < 10; round++) {
    const tx = await pool.connect();
    await tx.query("BEGIN");
    const reads = Array.from({ length: 4 }, (_, i) => {
      const want = round * 10 + i;
      const sql = i % 2 ? "SELECT $1::int AS n, 'a' AS k" : "SELECT $1::int AS n, 1 AS x, 2 AS y";
      return pool.query(sql, [want]).then(
        (r) => r.rows[0]?.n !== want && wrong.push(`${want}: ${JSON.stringify(r.rows)}`),
        (e: Error) => wrong.push(`${want}: ${e.message}`),
      );
    });
    await new Promise((r) => setTimeout(r, 10));
    await tx.query("COMMIT");
    tx.release();
    await Promise.all(reads);
  }
  expect(wrong).toEqual([]);
});

test("concurrent transactions on different connections stay isolated and all commit", async () => {
  await pool.query("CREATE TABLE counter (id int primary key, n int)");
  await pool.query("INSERT INTO counter VALUES (1, 0)");
  await Promise.all(
    Array.from({ length: 30 }, async () => {
      const c = await pool.connect();
      try {
        await c.query("BEGIN");
        const { rows } = await c.query("SELECT n FROM counter WHERE id = 1 FOR UPDATE");
        await c.query("UPDATE counter SET n = $1 WHERE id = 1", [rows[0].n + 1]);
        await c.query("COMMIT");
      } finally {
        c.release();
      }
    }),
  );
  expect((await pool.query("SELECT n FROM counter")).rows[0].n).toBe(30);
});

test("a data folder, new or already there, is made private (0700): it holds the seal's key and every secret", async () => {
  const parent = await mkdtemp(path.join(os.tmpdir(), "contracts-private-"));
  try {
    const made = path.join(parent, "new", "pglite");
    const existing = path.join(parent, "existing");
    await mkdir(existing, { mode: 0o755 });
    await chmod(existing, 0o755);
    for (const dir of [made, existing]) {
      const db = await startEmbeddedDatabase(dir);
      await db.stop();
      expect((await stat(dir)).mode & 0o777, dir).toBe(0o700);
    }
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}, 120_000);
