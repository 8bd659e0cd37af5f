// Readiness (lib/services/health/check-readiness.ts) on a real database: a database whose every
// connection is at work is reachable, and the instance stays ready (a lock or a burst on the one
// database every instance shares would otherwise take them all out at once).
import { afterAll, beforeAll, expect, test } from "vitest";
import { poolOf } from "@/lib/db/pool";
import { checkReadiness } from "@/lib/services/health/check-readiness";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "@/test/helpers/db";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

// The embedded database serves one session: its pool never fills, so it has no "busy" of this kind.
test.runIf(testDatabaseKind() === "postgres")("(PostgreSQL only) every connection busy for longer than the check waits: ready, the database named busy, the migrations as last seen", async () => {
  const database = async () => db.prisma;
  expect(await checkReadiness({ database, jobs: null })).toEqual({ ready: true, checks: { database: "ok", migrations: "ok", jobs: "ok (off on this instance)" } });
  // Each of the pool's connections sleeps past the check's 2 s (`then`: a Prisma query runs once asked for its result).
  const max = poolOf(db.prisma).options.max ?? 10;
  const sleeping = Array.from({ length: max }, () => db.prisma.$queryRawUnsafe("SELECT 1 AS slept FROM pg_sleep(4)").then(() => undefined));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const busy = await checkReadiness({ database, jobs: null });
  expect(busy).toEqual({ ready: true, checks: { database: "ok (busy: no connection free within 2 s)", migrations: "ok", jobs: "ok (off on this instance)" } });
  await Promise.all(sleeping);
});
