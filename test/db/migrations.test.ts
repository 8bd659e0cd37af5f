import { afterAll, beforeAll, expect, test } from "vitest";
import {
  CONTRACT_STATES,
  DELIVERY_CHANNELS,
  DELIVERY_STATUSES,
  PARTY_TYPES,
  SIGN_METHODS,
  SIGN_STATES,
  TWO_STEP_METHODS,
  WORKSPACE_ROLES,
} from "@/lib/domain/enums";
import { authStatementSql } from "@/lib/api/auth";
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

/** Every enumeration of the domain, the type the migrations create for it, and a column of that type. */
const ENUMS = [
  { type: "contract_state", values: CONTRACT_STATES, table: "contracts", column: "state" },
  { type: "party_type", values: PARTY_TYPES, table: "parties", column: "type" },
  { type: "delivery_channel", values: DELIVERY_CHANNELS, table: "participants", column: "delivery_channel" },
  { type: "sign_method", values: SIGN_METHODS, table: "participants", column: "sign_method" },
  { type: "two_step_method", values: TWO_STEP_METHODS, table: "participants", column: "two_step_authentication_method" },
  { type: "sign_state", values: SIGN_STATES, table: "participants", column: "sign_state" },
  { type: "delivery_status", values: DELIVERY_STATUSES, table: "participants", column: "delivery_status" },
  { type: "workspace_role", values: WORKSPACE_ROLES, table: "workspace_memberships", column: "role" },
] as const;

test.each(ENUMS)("$table, column $column: of the enumeration $type with exactly the domain's values", async ({ type, values, table, column }) => {
  const [column_] = await db.prisma.$queryRawUnsafe<{ udt_name: string }[]>(
    `SELECT udt_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2`,
    table,
    column,
  );
  expect(column_?.udt_name).toBe(type);
  const [range] = await db.prisma.$queryRawUnsafe<{ v: string[] }[]>(`SELECT enum_range(NULL::"${type}")::text[] AS v`);
  expect(range?.v).toEqual([...values]);
  // A value of the enumeration is accepted by the column, another one refused by the database
  // itself (the literal is checked when the statement is planned, so no row is needed).
  await expect(db.prisma.$executeRawUnsafe(`UPDATE "${table}" SET "${column}" = '${values[0]}' WHERE false`)).resolves.toBe(0);
  await expect(db.prisma.$executeRawUnsafe(`UPDATE "${table}" SET "${column}" = 'nope' WHERE false`)).rejects.toThrow(
    new RegExp(`invalid input value for enum ${type}`),
  );
});

// `npm run db:diff` needs a PostgreSQL server, so this runs in the real-server half of the suite:
// a schema change without its migration fails here.
test.runIf(testDatabaseKind() === "postgres")("(PostgreSQL only) prisma/schema.prisma and the migrations describe the same database", async () => {
  const { url, drop } = await createServerDatabase("contracts_diff");
  try {
    const sql = await diffMigrationsToSchema(url);
    expect(sql.replace(/^--.*$/gm, "").trim()).toBe("");
  } finally {
    await drop();
  }
}, 60_000);

// The authentication's statement joins the token's and the user's columns under `a_` names
// (lib/api/auth.ts AUTH_ROW_JOINS), so that a preload's unqualified column can never resolve to
// them: that holds only while no table of the schema has a column of one of those names.
test("no table has a column named as the authentication statement's joined columns", async () => {
  const { text } = authStatementSql({ tokenHash: "x", email: null, userId: null }, undefined);
  const joined = [...new Set([...text.matchAll(/\bAS (a_\w+)/g)].map((m) => m[1]!))];
  expect(joined.length).toBeGreaterThanOrEqual(9);
  // Every joined name has the prefix (the pattern above only finds those), so no column may have it.
  const clashing = await db.prisma.$queryRawUnsafe<{ table_name: string; column_name: string }[]>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_name LIKE 'a\\_%'`,
  );
  expect(clashing).toEqual([]);
});
