// The shared loop of the jobs done inside the transaction that takes their rows
// (lib/services/jobs/take-due.ts), on a table of its own: several takers at once take each due row
// exactly once, a taker skips rows another holds rather than waiting for them (PostgreSQL; the
// embedded database runs one transaction at a time), and a handler that throws rolls its batch back,
// its rows still due. Each job's own rules: the overdue, reminders, lifecycle and count tests.
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";

import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { takeDue } from "@/lib/services/jobs/take-due";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "@/test/helpers/db";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.$executeRawUnsafe("CREATE TABLE take_due_rows (id int PRIMARY KEY, due boolean NOT NULL DEFAULT true, taken int NOT NULL DEFAULT 0)");
});
afterAll(() => db.cleanup());
beforeEach(async () => {
  await db.prisma.$executeRawUnsafe("DELETE FROM take_due_rows");
});

const rows = (n: number) => db.prisma.$executeRawUnsafe(`INSERT INTO take_due_rows (id) SELECT g FROM generate_series(1, ${n}) g`);
const due = (batch: number) => Prisma.sql`SELECT id FROM take_due_rows WHERE due ORDER BY id LIMIT ${batch} FOR UPDATE SKIP LOCKED`;
const mark = (tx: Tx, taken: { id: number }[]) =>
  tx.$executeRaw`UPDATE take_due_rows SET due = false, taken = taken + 1 WHERE id = ANY(${taken.map((r) => r.id)}::int[])`;
const state = () => db.prisma.$queryRaw<{ id: number; due: boolean; taken: number }[]>`SELECT id, due, taken FROM take_due_rows ORDER BY id`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("two takers at once take every due row exactly once, a batch per transaction", async () => {
  await rows(60);
  const take = () =>
    takeDue<{ id: number }>(db.prisma, {
      batch: 4,
      due,
      async handle(tx, taken) {
        // Between taking and marking, the other taker runs.
        await tx.$executeRaw`SELECT pg_sleep(0.01)`;
        await mark(tx, taken);
      },
    });
  const [a, b] = await Promise.all([take(), take()]);
  const ids = [...a, ...b].map((r) => r.id).sort((x, y) => x - y);
  expect(ids).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  expect((await state()).every((r) => !r.due && r.taken === 1)).toBe(true);
});

test.skipIf(testDatabaseKind() === "pglite")("a taker skips the rows another holds instead of waiting for them", async () => {
  await rows(20);
  let second: Promise<{ id: number }[]> | null = null;
  let secondFirst = false;
  const first = takeDue<{ id: number }>(db.prisma, {
    batch: 5,
    rounds: 1,
    due,
    async handle(tx, taken) {
      // Holds its five rows until the other taker is done (or 5 s have passed).
      second = takeDue<{ id: number }>(db.prisma, { batch: 100, rounds: 1, due, handle: mark });
      secondFirst = await Promise.race([second.then(() => true), pause(5_000).then(() => false)]);
      await mark(tx, taken);
    },
  });
  const held = await first;
  expect(secondFirst).toBe(true);
  expect(held.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
  expect((await second!).map((r) => r.id)).toEqual(Array.from({ length: 15 }, (_, i) => i + 6));
  expect((await state()).every((r) => !r.due && r.taken === 1)).toBe(true);
});

test("a handler that throws rolls its batch back: its rows stay due, batches committed before stay done", async () => {
  await rows(12);
  let round = 0;
  await expect(
    takeDue<{ id: number }>(db.prisma, {
      batch: 5,
      due,
      async handle(tx, taken) {
        await mark(tx, taken);
        if (++round === 2) throw new Error("disk on fire");
      },
    }),
  ).rejects.toThrow("disk on fire");
  const after = await state();
  expect(after.filter((r) => !r.due).map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
  expect(after.filter((r) => r.due && r.taken === 0)).toHaveLength(7);
  // The next run takes them.
  expect(await takeDue<{ id: number }>(db.prisma, { batch: 5, due, handle: mark })).toHaveLength(7);
  expect((await state()).every((r) => !r.due && r.taken === 1)).toBe(true);
});

test("a call told to stop ends before its next batch; what is left stays due for the next run", async () => {
  await rows(12);
  let stop = false;
  const taken = await takeDue<{ id: number }>(db.prisma, {
    batch: 5,
    due,
    stopping: () => stop,
    async handle(tx, batch) {
      await mark(tx, batch);
      stop = true;
    },
  });
  expect(taken.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
  expect((await state()).filter((r) => r.due)).toHaveLength(7);
  expect(await takeDue<{ id: number }>(db.prisma, { batch: 5, due, handle: mark })).toHaveLength(7);
});
