// /readyz is public: a flood of probes must not become a flood of database queries.
import { afterEach, expect, test, vi } from "vitest";
import type { PrismaClient } from "@/lib/db";
import { READINESS_REUSE_MS, registerOperations, type TOperations } from "@/lib/services/health/register-operations";

afterEach(() => vi.useRealTimers());

test("concurrent probes share one readiness check, and a check answers for a second", async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  let queries = 0;
  const db = { $queryRawUnsafe: async () => (queries++, []) } as unknown as PrismaClient;
  registerOperations({ database: () => db, openDatabase: async () => db, backgroundJobs: false });
  const ops = (globalThis as { __contractsOperations?: TOperations }).__contractsOperations!;

  const answers = await Promise.all(Array.from({ length: 50 }, () => ops.readiness()));
  expect(queries).toBe(1);
  expect(answers.every((a) => a.checks.database === "ok")).toBe(true);
  await ops.readiness();
  expect(queries).toBe(1);
  vi.setSystemTime(Date.now() + READINESS_REUSE_MS);
  await ops.readiness();
  expect(queries).toBe(2);
});
