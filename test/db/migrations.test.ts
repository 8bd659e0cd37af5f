import { afterAll, beforeAll, expect, test } from "vitest";
import { applyMigrations, diffMigrationsToSchema, readMigrationsList } from "@/lib/db/schema-engine";
import { createServerDatabase, createTestDatabase, testDatabaseKind, type TestDatabase } from "@/test/helpers/db";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

test("every migration is recorded once, and applying again is a no-op", async () => {
  const { migrationDirectories } = await readMigrationsList();
  expect(migrationDirectories.length).toBeGreaterThan(0);
  const rows = await db.prisma.$queryRaw<{ migration_name: string; finished_at: Date | null }[]>`
    SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name`;
  expect(rows.map((r) => r.migration_name)).toEqual(migrationDirectories.map((d) => d.path));
  expect(rows.every((r) => r.finished_at !== null)).toBe(true);
  expect(await applyMigrations(db.url)).toEqual([]);
});

test("enumerations are enforced by the database", async () => {
  await expect(
    db.prisma.$executeRawUnsafe(
      `INSERT INTO workspaces (name, company_name) VALUES ('w', 'c');
       INSERT INTO template_types (name, extension_type) VALUES ('t', 'pdf')`,
    ),
  ).resolves.toBeDefined();
  await expect(db.prisma.$executeRawUnsafe(`SELECT 'nope'::contract_state`)).rejects.toThrow();
});

// `npm run db:diff` needs a PostgreSQL server, so this runs in the real-server half of the suite:
// a schema change without its migration fails here.
test.runIf(testDatabaseKind() === "postgres")("prisma/schema.prisma and the migrations describe the same database", async () => {
  const { url, drop } = await createServerDatabase("contracts_diff");
  try {
    const sql = await diffMigrationsToSchema(url);
    expect(sql.replace(/^--.*$/gm, "").trim()).toBe("");
  } finally {
    await drop();
  }
}, 60_000);
