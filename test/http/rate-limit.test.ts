import { afterAll, beforeAll, expect, test } from "vitest";
import { createPrismaClient } from "@/lib/db";
import { createApiToken } from "@/lib/db/seed/factories";
import { startServerOnFreshDatabase } from "@/test/helpers/fresh-server";
import { startServer, type RunningServer } from "@/test/helpers/server";

// Issue 5, promise 5: API calls are limited per token (429 with Retry-After), the counters live in
// the database, so two app instances on one database share one limit.

const LIMIT = 8;
let first: RunningServer & { kind: string };
let second: RunningServer | undefined;
let token: string;

beforeAll(async () => {
  first = await startServerOnFreshDatabase({ API_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  const db = createPrismaClient(first.databaseUrl, 1);
  token = (await createApiToken(db, { name: "rate limit test" })).token;
  await db.$disconnect();
  // A second instance on the same database (a real server can be shared; the embedded one cannot).
  if (first.kind === "postgres") second = await startServer({ databaseUrl: first.databaseUrl, env: { API_RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
}, 180_000);

afterAll(async () => {
  await second?.stop();
  await first?.stop();
});

const get = (base: string, t = token) => fetch(`${base}/v1/workspaces`, { headers: { "x-service-api-token": t } });

test("past the per-minute limit a token gets 429 with Retry-After, counted across instances", async () => {
  // Stay in one minute window: if the minute is about to turn, wait for the next one.
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
  const bases = second ? [first.baseUrl, second.baseUrl] : [first.baseUrl];
  const statuses: number[] = [];
  for (let i = 0; i < LIMIT; i++) statuses.push((await get(bases[i % bases.length]!)).status);
  expect(statuses).toEqual(Array(LIMIT).fill(200));

  const refused = await get(bases.at(-1)!);
  expect(refused.status).toBe(429);
  const retryAfter = Number(refused.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(await refused.json()).toMatchObject({ status: 429, error_code: 4290001 });

  // Another token has its own budget.
  const db = createPrismaClient(first.databaseUrl, 1);
  const other = (await createApiToken(db, { name: "other" })).token;
  await db.$disconnect();
  expect((await get(first.baseUrl, other)).status).toBe(200);
}, 120_000);
