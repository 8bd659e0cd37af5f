import { expect, test } from "vitest";

// When the database cannot be opened, every request, the background jobs and readiness probes ask
// again; each attempt may start a migration process (lib/db/migrate.ts). So after a failure the
// same failure is answered until a back-off has passed, and only then is it tried again.
test("after a failed opening, calls answer that failure until the back-off has passed, then try again", async () => {
  // Port 1 on the loopback: nothing listens, the connection is refused at once.
  process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:1/contracts_nowhere";
  const { getPrisma, databaseStatus } = await import("@/lib/db");
  const first = await getPrisma().catch((error: unknown) => error);
  expect(first).toBeInstanceOf(Error);
  // Refused by the server's own connect, before any migration process was started.
  expect(String((first as Error).message)).toMatch(/ECONNREFUSED/);
  expect(String((first as Error).message)).not.toMatch(/migration/);
  expect(databaseStatus()).toBe("failed");
  // Within the back-off: the same failure, no new attempt.
  expect(await getPrisma().catch((error: unknown) => error)).toBe(first);
  // After it (the first wait is 0.5 s): a new attempt, which fails anew.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const third = await getPrisma().catch((error: unknown) => error);
  expect(third).toBeInstanceOf(Error);
  expect(third).not.toBe(first);
});
