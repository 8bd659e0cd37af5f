import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { consumeApiRequest, createApiRateLimiter, type ApiRateLimiter, leaseQuota } from "@/lib/api/rate-limit";
import type { PrismaClient } from "@/lib/db";
import { createPrismaClient } from "@/lib/db/pool";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

// The per-token API limit on a real database (embedded by default, TEST_DB=postgres for a server):
// requests are admitted from per-process leases of the shared per-minute quota, so a busy token
// costs few database writes, yet the limit stays exact across "instances" (separate limiter
// states, each with its own Prisma client and connections, on one database).

let db: TestDatabase;
/** More clients on the same database: each stands for another app instance. */
const others: PrismaClient[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  // Every row written to rate_limits (insert or update) leaves a row here: what the limiter costs.
  await db.prisma.$executeRawUnsafe(`CREATE TABLE rate_limit_writes (id serial PRIMARY KEY, key text NOT NULL)`);
  await db.prisma.$executeRawUnsafe(`
    CREATE FUNCTION log_rate_limit_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO rate_limit_writes (key) VALUES (NEW.key); RETURN NEW; END $$`);
  await db.prisma.$executeRawUnsafe(`
    CREATE TRIGGER rate_limit_writes AFTER INSERT OR UPDATE ON rate_limits
    FOR EACH ROW EXECUTE FUNCTION log_rate_limit_write()`);
});

afterAll(async () => {
  await Promise.all(others.map((c) => c.$disconnect()));
  await db?.cleanup();
});

function anotherInstance(): PrismaClient {
  const client = createPrismaClient(db.url, 3);
  others.push(client);
  return client;
}

async function writesOf(tokenId: number): Promise<number> {
  const rows = await db.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM rate_limit_writes WHERE key = ${`api-token:${tokenId}`}`;
  return rows[0]!.n;
}

async function handedOut(tokenId: number): Promise<number> {
  const row = await db.prisma.rateLimit.findUnique({ where: { key: `api-token:${tokenId}` } });
  return row?.count ?? 0;
}

// A fixed clock, 10 s into a minute, so no test straddles a window by chance.
const MINUTE = Date.UTC(2031, 0, 1, 12, 0, 0);
const NOW = MINUTE + 10_000;

type Outcome = "ok" | "refused";
async function attempt(run: () => Promise<void>): Promise<Outcome> {
  try {
    await run();
    return "ok";
  } catch (error) {
    if (error instanceof ApiError && error.key === "rate_limited") return "refused";
    throw error;
  }
}
const count = (outcomes: Outcome[], what: Outcome) => outcomes.filter((o) => o === what).length;

describe("a busy token costs few database writes", () => {
  test("200 concurrent requests of one token under a high limit: all admitted, with far fewer than 200 writes", async () => {
    const tokenId = 101;
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, () => attempt(() => consumeApiRequest(db.prisma, tokenId, { now: NOW, limit: 1_000_000 }))),
    );
    expect(count(outcomes, "ok")).toBe(200);
    const writes = await writesOf(tokenId);
    // One write per request before leases; now a handful (leases grow with the waiting requests).
    expect(writes).toBeGreaterThanOrEqual(1);
    expect(writes).toBeLessThanOrEqual(10);
    // Leased quota is counted in the shared row, so it covers at least what was admitted.
    expect(await handedOut(tokenId)).toBeGreaterThanOrEqual(200);
  });

  test("700 sequential requests of one token against the default 600 a minute: 600 admitted with a few dozen writes, not 600", async () => {
    const limiter = createApiRateLimiter();
    const tokenId = 102;
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 700; i++) outcomes.push(await attempt(() => limiter.consume(db.prisma, tokenId, { now: NOW + i, limit: 600 })));
    expect(count(outcomes, "ok")).toBe(600);
    expect(outcomes.slice(600)).toEqual(Array(100).fill("refused"));
    // Chunks 1, 2, 4, … up to 1/8 of what is free, then shrinking to 1 near the limit; refusals are free.
    expect(await writesOf(tokenId)).toBeLessThanOrEqual(50);
    expect(await handedOut(tokenId)).toBe(600);
  });
});

describe("the limit is exact across instances", () => {
  test("two instances, requests alternating: exactly L are admitted in total, then both refuse", async () => {
    const L = 50;
    const tokenId = 201;
    const instances: [ApiRateLimiter, PrismaClient][] = [
      [createApiRateLimiter(), db.prisma],
      [createApiRateLimiter(), anotherInstance()],
    ];
    const outcomes: Outcome[] = [];
    // Enough calls that every lease either instance holds is used up.
    for (let i = 0; i < 2 * L + 10; i++) {
      const [limiter, prisma] = instances[i % 2]!;
      outcomes.push(await attempt(() => limiter.consume(prisma, tokenId, { now: NOW + i, limit: L })));
    }
    expect(count(outcomes, "ok")).toBe(L);
    for (const [limiter, prisma] of instances) {
      expect(await attempt(() => limiter.consume(prisma, tokenId, { now: NOW + 5_000, limit: L }))).toBe("refused");
    }
    expect(await handedOut(tokenId)).toBe(L);
  });

  test("a refusal carries Retry-After until the minute ends, and costs no write", async () => {
    const limiter = createApiRateLimiter();
    const tokenId = 202;
    for (let i = 0; i < 3; i++) await limiter.consume(db.prisma, tokenId, { now: NOW, limit: 3 });
    const before = await writesOf(tokenId);
    const error = await limiter.consume(db.prisma, tokenId, { now: MINUTE + 45_500, limit: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).key).toBe("rate_limited");
    expect((error as ApiError).headers).toEqual({ "Retry-After": "15" });
    // A second instance learns it from the row (one statement that writes nothing), then refuses from memory.
    const second = createApiRateLimiter();
    for (let i = 0; i < 5; i++) expect(await attempt(() => second.consume(db.prisma, tokenId, { now: NOW, limit: 3 }))).toBe("refused");
    expect(await writesOf(tokenId)).toBe(before);
    expect(await handedOut(tokenId)).toBe(3);
  });

  test("takeNow counts from the lease without waiting, and counts nothing when it cannot", async () => {
    const limiter = createApiRateLimiter();
    const tokenId = 204;
    const options = { now: NOW, limit: 1_000 };
    expect(limiter.takeNow(db.prisma, tokenId, { now: NOW, limit: 0 })).toBe(true);
    // No lease yet: nothing counted, no write. Then consume reserves 1, then 2 (one left over).
    expect(limiter.takeNow(db.prisma, tokenId, options)).toBe(false);
    expect(await writesOf(tokenId)).toBe(0);
    await limiter.consume(db.prisma, tokenId, options);
    await limiter.consume(db.prisma, tokenId, options);
    expect(await handedOut(tokenId)).toBe(3);
    const writes = await writesOf(tokenId);
    // The one left over is taken now; then the lease is empty, and takeNow counts nothing.
    expect(limiter.takeNow(db.prisma, tokenId, options)).toBe(true);
    expect(limiter.takeNow(db.prisma, tokenId, options)).toBe(false);
    expect(await writesOf(tokenId)).toBe(writes);
    // consume then reserves anew (4), and takeNow has three to take from it.
    await limiter.consume(db.prisma, tokenId, options);
    expect(await handedOut(tokenId)).toBe(7);
    expect([1, 2, 3, 4].map(() => limiter.takeNow(db.prisma, tokenId, options))).toEqual([true, true, true, false]);
  });

  test("the next minute starts again from the whole limit", async () => {
    const limiter = createApiRateLimiter();
    const tokenId = 203;
    const run = (now: number) => attempt(() => limiter.consume(db.prisma, tokenId, { now, limit: 4 }));
    const first = [];
    for (let i = 0; i < 6; i++) first.push(await run(NOW));
    expect(first).toEqual(["ok", "ok", "ok", "ok", "refused", "refused"]);
    const next = [];
    for (let i = 0; i < 6; i++) next.push(await run(NOW + 60_000));
    expect(next).toEqual(["ok", "ok", "ok", "ok", "refused", "refused"]);
    // Another instance still in the old minute (its clock behind) counts against the newer one.
    expect(await attempt(() => createApiRateLimiter().consume(db.prisma, tokenId, { now: NOW, limit: 4 }))).toBe("refused");
  });
});

describe("at the limit under concurrency", () => {
  test("four instances, 240 concurrent requests against a limit of 50: exactly 50 admitted", async () => {
    const L = 50;
    const tokenId = 301;
    const instances = Array.from({ length: 4 }, (_, i) => [createApiRateLimiter(), i === 0 ? db.prisma : anotherInstance()] as const);
    const outcomes = await Promise.all(
      Array.from({ length: 240 }, (_, i) => {
        const [limiter, prisma] = instances[i % 4]!;
        return attempt(() => limiter.consume(prisma, tokenId, { now: NOW, limit: L }));
      }),
    );
    // Each instance gets 60 calls, more than it can ever hold, so no lease is left over: exactly L.
    expect(count(outcomes, "ok")).toBe(L);
    expect(count(outcomes, "refused")).toBe(240 - L);
    expect(await handedOut(tokenId)).toBe(L);
  });

  test("40 concurrent leases on one row never hand out more than the limit", async () => {
    const L = 100;
    const key = "api-token:302";
    const clients = [db.prisma, anotherInstance(), anotherInstance()];
    const grants = await Promise.all(
      Array.from({ length: 40 }, (_, i) => leaseQuota(clients[i % clients.length]!, { key, windowStart: BigInt(MINUTE), limit: L, want: 40 })),
    );
    // `undefined`: lost the race to create the row (the caller asks again); never more than the limit in total.
    const granted = grants.reduce<number>((sum, g) => sum + (g ?? 0), 0);
    expect(granted).toBeLessThanOrEqual(L);
    expect(await handedOut(302)).toBe(granted);
    for (const g of grants) if (g !== undefined) expect(g).toBeLessThanOrEqual(40);
    // Chunks are at most 1/8 of what was free, so 40 leases leave some over; the rest comes out one by one.
    let more = 0;
    for (;;) {
      const g = await leaseQuota(db.prisma, { key, windowStart: BigInt(MINUTE), limit: L, want: 1_000 });
      if (!g) break;
      more += g;
    }
    expect(granted + more).toBe(L);
    expect(await handedOut(302)).toBe(L);
  });
});

describe("memory", () => {
  test("leases of past minutes are dropped, and past the cap the oldest lease goes", async () => {
    const limiter = createApiRateLimiter();
    for (let id = 400; id < 405; id++) await limiter.consume(db.prisma, id, { now: NOW, limit: 1_000 });
    expect(limiter.size()).toBe(5);
    await limiter.consume(db.prisma, 400, { now: NOW + 60_000, limit: 1_000 });
    expect(limiter.size()).toBe(1);

    const capped = createApiRateLimiter({ maxLeases: 3 });
    const twice = async (id: number) => {
      // Leases of 1, then 2: one request left over in memory.
      await capped.consume(db.prisma, id, { now: NOW, limit: 1_000 });
      await capped.consume(db.prisma, id, { now: NOW, limit: 1_000 });
    };
    for (let id = 410; id < 415; id++) await twice(id);
    expect(capped.size()).toBe(3);
    // A kept lease answers from memory; a dropped one only lost its unused part and leases again.
    const kept = await handedOut(414);
    await capped.consume(db.prisma, 414, { now: NOW, limit: 1_000 });
    expect(await handedOut(414)).toBe(kept);
    const dropped = await handedOut(410);
    await capped.consume(db.prisma, 410, { now: NOW, limit: 1_000 });
    expect(await handedOut(410)).toBeGreaterThan(dropped);
  });
});

describe("a busy token's lease is topped up before it runs out", () => {
  /**
   * `n` requests of one token, one after another, each counted without waiting when it can be
   * (`takeNow`; the rest wait in `consume`); after each, whatever it reserved in the
   * background has ended, as it has under load long before a quarter of a lease is used.
   */
  async function busyToken(limiter: ApiRateLimiter, tokenId: number, n: number, now: number) {
    const options = { now, limit: 1_000_000 };
    let waited = 0;
    for (let i = 0; i < n; i++) {
      if (!limiter.takeNow(db.prisma, tokenId, options)) {
        waited++;
        await limiter.consume(db.prisma, tokenId, options);
      }
      await limiter.settled();
    }
    return waited;
  }

  test("once its lease is 8 or more, no request finds it empty: the next is reserved in the background at a quarter left", async () => {
    const tokenId = 701;
    const waited = await busyToken(createApiRateLimiter(), tokenId, 600, NOW);
    // The first request finds no lease; leases of 1, 2 and 4 run out (a quiet token holds little);
    // from 8 on, each next one is reserved while a quarter is left. Without the top-up every lease
    // ran out: 1, 2, 4, … 512, ten waits.
    expect(waited).toBe(4);
    // Reserved ahead, not more often: the leases still double.
    expect(await writesOf(tokenId)).toBeLessThanOrEqual(12);
    expect(await handedOut(tokenId)).toBeGreaterThanOrEqual(600);
  });

  test("with top-ups, two instances still admit exactly the limit between them", async () => {
    const L = 1_000;
    const tokenId = 704;
    const instances: [ApiRateLimiter, PrismaClient][] = [
      [createApiRateLimiter(), db.prisma],
      [createApiRateLimiter(), anotherInstance()],
    ];
    const options = { now: NOW, limit: L };
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 2 * L + 20; i++) {
      const [limiter, prisma] = instances[i % 2]!;
      outcomes.push(limiter.takeNow(prisma, tokenId, options) ? "ok" : await attempt(() => limiter.consume(prisma, tokenId, options)));
      await limiter.settled();
    }
    expect(count(outcomes, "ok")).toBe(L);
    expect(outcomes.slice(-20)).toEqual(Array(20).fill("refused"));
    expect(await handedOut(tokenId)).toBe(L);
  });

  test("a top-up that fails is not tried again by every request: the lease is then renewed when it runs out", async () => {
    const limiter = createApiRateLimiter();
    const tokenId = 703;
    const options = { now: NOW, limit: 1_000_000 };
    // Eight requests: leases of 1, 2 and 4 used up, then one of 8 with 7 left (a quarter: 2).
    for (let i = 0; i < 8; i++) if (!limiter.takeNow(db.prisma, tokenId, options)) await limiter.consume(db.prisma, tokenId, options);
    // Now the database fails (a client whose statements are refused).
    let attempts = 0;
    const failing = new Proxy(db.prisma, {
      get: (target, key, receiver) =>
        key === "$queryRaw"
          ? () => {
              attempts++;
              return Promise.reject(new Error("the database is down"));
            }
          : Reflect.get(target, key, receiver),
    });
    for (let i = 0; i < 5; i++) expect(limiter.takeNow(failing, tokenId, options)).toBe(true);
    await limiter.settled();
    // At 2 left, one top-up, which failed; the last two requests do not try again.
    expect(attempts).toBe(1);
    expect([1, 2, 3].map(() => limiter.takeNow(failing, tokenId, options))).toEqual([true, true, false]);
    await limiter.settled();
    expect(attempts).toBe(1);
    // Empty: the next request reserves (and waits), as without a top-up.
    await limiter.consume(db.prisma, tokenId, options);
    expect(await handedOut(tokenId)).toBe(1 + 2 + 4 + 8 + 16);
  });

  test("not in a minute's last five seconds, where what it reserved would mostly go unused", async () => {
    const tokenId = 702;
    const waited = await busyToken(createApiRateLimiter(), tokenId, 300, MINUTE + 56_000);
    // Every lease runs out again: 1, 2, 4, … 256.
    expect(waited).toBe(9);
  });
});
