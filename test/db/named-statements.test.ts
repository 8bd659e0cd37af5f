import { afterAll, beforeAll, expect, test } from "vitest";
import { poolOf } from "@/lib/db/pool";
import { queryOne } from "@/lib/db/query";
import { Prisma } from "@/lib/generated/prisma/client";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

// Hot statements are prepared by name, found by their text's length and then compared
// (lib/db/query.ts `queryOne`): texts of one length must each keep their own name and answer.
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

test("statements of the same length each answer for themselves, however often and in whatever order", async () => {
  // Built anew each time, as a request builds its statement: equal texts are different strings.
  const statement = (n: number, value: number) => Prisma.sql`SELECT ${Prisma.raw(String(n))} + ${value}::int AS v`;
  for (let round = 0; round < 4; round++) {
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      const row = await queryOne<{ v: number }>(db.prisma, statement(n, round * 10));
      expect(row?.v, `${statement(n, 0).text} in round ${round}`).toBe(n + round * 10);
    }
  }
  // A statement whose length no other has, in between, changes nothing.
  expect((await queryOne<{ v: string }>(db.prisma, Prisma.sql`SELECT ${"x"}::text || '!' AS v`))?.v).toBe("x!");
  expect((await queryOne<{ v: number }>(db.prisma, statement(5, 1)))?.v).toBe(6);
});

test("statements are prepared on a PostgreSQL server, never on the embedded database (one session for every connection), and queries answer either way", async () => {
  const { rows } = await poolOf(db.prisma).query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'hot\\_%'`);
  if (db.kind === "pglite") expect(rows[0]!.n).toBe(0);
  else expect(rows[0]!.n).toBeGreaterThan(0);
});
