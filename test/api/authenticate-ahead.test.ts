// authenticate() with a write-ahead, against a real database and this process's rate limiter: a
// request counted before its statement and then refused (an unknown user) gives its count back, so
// the limit still admits exactly its number of good requests.
import { afterAll, beforeAll, expect, test } from "vitest";
import { authenticate } from "@/lib/api/authenticate";
import { ApiError } from "@/lib/api/errors";
import type { TWriteAhead } from "@/lib/db/sql";
import { createApiToken } from "@/lib/db/seed/factories";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

const LIMIT = 16;
// Read once, on first use (lib/env.ts); nothing in this file's imports reads it. Put back after,
// as a worker may run another file next.
const given = process.env.API_RATE_LIMIT_PER_MINUTE;
process.env.API_RATE_LIMIT_PER_MINUTE = String(LIMIT);

let db: TestDatabase;
let token: string;
beforeAll(async () => {
  db = await createTestDatabase();
  token = (await createApiToken(db.prisma, { name: "ahead" })).token;
});
afterAll(async () => {
  if (given === undefined) delete process.env.API_RATE_LIMIT_PER_MINUTE;
  else process.env.API_RATE_LIMIT_PER_MINUTE = given;
  await db?.cleanup();
});

/** A write-ahead that writes nothing: only its admission by the limiter matters here. */
const nothing: TWriteAhead = (_q, allowed) => ({ ctes: `ahead_noop AS (SELECT 1 WHERE ${allowed})`, written: "NULL" });
let admittedAhead = 0;
const counting: TWriteAhead = (q, allowed) => {
  admittedAhead++;
  return nothing(q, allowed);
};

async function outcome(headers: Record<string, string>): Promise<"ok" | "refused" | "unknown user"> {
  const req = new Request("http://localhost/v1", { method: "PUT", headers: { "x-service-api-token": token, ...headers } });
  try {
    await authenticate(req, db.prisma, undefined, counting);
    return "ok";
  } catch (error) {
    if (error instanceof ApiError && error.key === "rate_limited") return "refused";
    if (error instanceof ApiError && error.key === "unknown_user_email") return "unknown user";
    throw error;
  }
}

test("requests counted ahead and then refused for an unknown user count nothing: exactly the limit's good requests are admitted", async () => {
  // Stay in one minute window.
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
  const good: string[] = [];
  for (let i = 0; i < 3 * LIMIT; i++) {
    expect(await outcome({ "x-service-user-email": "nobody@example.org" })).toBe("unknown user");
    good.push(await outcome({}));
  }
  // Some of the refused ones were counted ahead (else this proves nothing), and all were given back.
  expect(admittedAhead).toBeGreaterThan(0);
  expect(good.filter((o) => o === "ok")).toHaveLength(LIMIT);
  expect(good.slice(LIMIT)).toEqual(Array(2 * LIMIT).fill("refused"));
}, 120_000);
