import { afterAll, beforeAll, expect, test } from "vitest";
import pg from "pg";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { applyMigrationsInChildProcess } from "@/lib/db/migrate";
import { readMigrationsList } from "@/lib/db/schema-engine";
import { createServerDatabase, testDatabaseKind } from "@/test/helpers/db";

// The app's server applies the migrations in a child process (lib/db/migrate.ts), so Prisma's
// schema engine never stays in the server's memory. Here: on an empty database of the suite's kind.
let url: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  if (testDatabaseKind() === "pglite") {
    const embedded = await startEmbeddedDatabase("memory://");
    url = embedded.url;
    cleanup = embedded.stop;
  } else {
    const created = await createServerDatabase();
    url = created.url;
    cleanup = created.drop;
  }
});
afterAll(() => cleanup());

test("the child process applies every migration once and answers their names; again, none", async () => {
  const names = (await readMigrationsList()).migrationDirectories.map((d) => d.path);
  expect(await applyMigrationsInChildProcess(url)).toEqual(names);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ migration_name: string }>("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY 1");
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    // The schema is there: a table of the last migrations can be read.
    await expect(client.query("SELECT count(*) FROM contracts")).resolves.toMatchObject({ rows: [{ count: "0" }] });
  } finally {
    await client.end();
  }
  expect(await applyMigrationsInChildProcess(url)).toEqual([]);
}, 120_000);

test("a database that cannot be reached: rejects with the child's error, in bounded time", async () => {
  // Port 1 on the loopback: nothing listens there, so the connection is refused at once.
  const unreachable = "postgresql://postgres@127.0.0.1:1/contracts_nowhere";
  await expect(applyMigrationsInChildProcess(unreachable)).rejects.toThrow(/Applying the database migrations failed: the migration process exited with code 1\.\n\S/);
}, 60_000);
