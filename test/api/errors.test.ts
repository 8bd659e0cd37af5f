import { DriverAdapterError } from "@prisma/driver-adapter-utils";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ERROR_CODES } from "@/lib/domain/error-codes";
import { ApiError, apiError, errorResponse, fromZodError, isDatabaseBusy, isDatabaseUnavailable } from "@/lib/api/errors";
import { createPrismaClient } from "@/lib/db/pool";
import { queryOne } from "@/lib/db/query";
import { createTestDatabase } from "@/test/helpers/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { MAX_REPORTED_UNKNOWN_KEYS, requestObject } from "@/lib/schemas/common";
import { ZApiErrorSchema } from "@/lib/schemas/error";

const ctx = { requestId: "req-1", origin: "https://contracts.example.com" };

async function answer(error: unknown) {
  const res = errorResponse(error, ctx);
  const body = ZApiErrorSchema.strict().parse(await res.json());
  return { res, body };
}

const prismaError = (code: string, message = "x") =>
  new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: "7.10.0" });

describe("ERROR_CODES", () => {
  it("codes are 7 digits, begin with their status, and are unique", () => {
    const codes = Object.values(ERROR_CODES).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const { code, status } of Object.values(ERROR_CODES)) {
      expect(String(code)).toMatch(/^\d{7}$/);
      expect(String(code).slice(0, 3)).toBe(String(status));
    }
  });

  it("has a generic code for every status it uses", () => {
    const statuses = new Set(Object.values(ERROR_CODES).map((e) => e.status));
    for (const status of statuses) {
      expect(Object.values(ERROR_CODES).some((e) => e.code === status * 10_000)).toBe(true);
    }
  });
});

describe("errorResponse", () => {
  it("renders an ApiError in the one error shape", async () => {
    const { res, body } = await answer(
      apiError("option_not_offered", "sms is not offered.", {
        parameterProblems: { "parties.0.participants.0.delivery_channel": ["not offered by the template"] },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("x-request-id")).toBe("req-1");
    expect(body).toEqual({
      status: 400,
      title: "Bad Request",
      detail: "sms is not offered.",
      error_code: ERROR_CODES.option_not_offered.code,
      type: `https://contracts.example.com/v1/error_codes/${ERROR_CODES.option_not_offered.code}`,
      request_id: "req-1",
      parameter_problems: { "parties.0.participants.0.delivery_channel": ["not offered by the template"] },
    });
  });

  it("omits parameter_problems when there are none, and passes extra headers", async () => {
    const { res, body } = await answer(new ApiError("rate_limited", "Slow down.", { headers: { "Retry-After": "30" } }));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("30");
    expect(body).not.toHaveProperty("parameter_problems");
  });

  it("maps a ZodError to 400 validation_failed keyed by dotted paths", async () => {
    const schema = z.object({
      name: z.string().min(1, "must not be empty"),
      parties: z.array(z.object({ participants: z.array(z.object({ email: z.email("must be an e-mail address") })) })),
    });
    const { error } = schema.safeParse({ name: "", parties: [{ participants: [{ email: "ok@example.com" }, { email: "nope" }] }] });
    const { res, body } = await answer(error);
    expect(res.status).toBe(400);
    expect(body.error_code).toBe(ERROR_CODES.validation_failed.code);
    expect(body.parameter_problems).toEqual({
      name: ["must not be empty"],
      "parties.0.participants.1.email": ["must be an e-mail address"],
    });
    expect(body.detail).toBe("name: must not be empty (and 1 more; see parameter_problems)");
  });

  it("maps unrecognized keys to unknown_attribute keyed by the key's own path", async () => {
    const schema = z.strictObject({ parties: z.array(z.strictObject({ name: z.string() })) });
    const { error } = schema.safeParse({ id: 3, parties: [{ name: "A", my_party: true }] });
    const { body } = await answer(error);
    expect(body.error_code).toBe(ERROR_CODES.unknown_attribute.code);
    expect(body.parameter_problems).toEqual({
      id: ["unknown or read-only attribute"],
      "parties.0.my_party": ["unknown or read-only attribute"],
    });
  });

  it("names at most MAX_REPORTED_UNKNOWN_KEYS unknown keys of a request object, however many a body holds", async () => {
    const body = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, 0]));
    const { error } = requestObject({ name: z.string().optional() }, { k0: "is read-only" }).safeParse(body);
    expect(error!.issues[0]!.message).toMatch(/^"k0" is read-only; "k1" is not a known attribute; .*; 980 more unknown attributes$/);
    const { body: answered } = await answer(error);
    expect(Object.keys(answered.parameter_problems ?? {})).toHaveLength(MAX_REPORTED_UNKNOWN_KEYS);
    expect(answered.parameter_problems).toMatchObject({ k0: ["is read-only"], k19: ["is not a known attribute"] });
  });

  it("uses validation_failed when unknown keys come with other problems", async () => {
    const { error } = z.strictObject({ name: z.string() }).safeParse({ name: 1, x: 1 });
    const { body } = await answer(error);
    expect(body.error_code).toBe(ERROR_CODES.validation_failed.code);
    expect(Object.keys(body.parameter_problems ?? {}).sort()).toEqual(["name", "x"]);
  });

  it("maps Prisma's not-found to 404 and unique violation to 409", async () => {
    expect((await answer(prismaError("P2025"))).body).toMatchObject({ status: 404, error_code: 4040001 });
    expect((await answer(prismaError("P2002"))).body).toMatchObject({ status: 409, error_code: 4090003 });
  });

  it("maps database connection failures to 503 with Retry-After", async () => {
    const failures: unknown[] = [
      prismaError("P1001", "Can't reach database server"),
      prismaError("P1017", "Server has closed the connection."),
      new DriverAdapterError({ kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5432 }),
      new DriverAdapterError({ kind: "ConnectionClosed" }),
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED", syscall: "connect", errno: -111 }),
      new Error("Connection terminated unexpectedly"),
      new Error("timeout exceeded when trying to connect"),
      new Error("wrapped", { cause: Object.assign(new Error("x"), { code: "57P01" }) }),
      new AggregateError([Object.assign(new Error("x"), { code: "ECONNREFUSED" })], "connect failed"),
      new Prisma.PrismaClientInitializationError("Can't reach database server", "7.10.0"),
      // As Prisma's pg adapter reports a database that takes no connections (ALLOW_CONNECTIONS false) or is gone.
      ...[
        { code: "55000", message: 'database "contracts" is not currently accepting connections' },
        { code: "3D000", message: 'database "contracts" does not exist' },
        { code: "28P01", message: 'password authentication failed for user "app"' },
      ].map(({ code, message }) =>
        Object.assign(prismaError("P2010", `Raw query failed. Code: \`${code}\``), {
          meta: { driverAdapterError: { name: "DriverAdapterError", cause: { originalCode: code, kind: "postgres", code, severity: "FATAL", message } } },
        }),
      ),
    ];
    for (const failure of failures) {
      expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
      const { res, body } = await answer(failure);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(body.error_code).toBe(ERROR_CODES.database_unavailable.code);
      expect(body.detail).not.toMatch(/5432|127\.0\.0\.1|ECONNREFUSED/);
    }
  });

  it("recognises what a real client throws when nothing listens on the database port", async () => {
    const prisma = createPrismaClient("postgresql://postgres@127.0.0.1:1/postgres", 1);
    try {
      const failures = await Promise.all([
        prisma.user.findMany().catch((e: unknown) => e),
        prisma.$queryRaw`SELECT 1`.catch((e: unknown) => e),
      ]);
      for (const failure of failures) expect(errorResponse(failure, ctx).status, String(failure)).toBe(503);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("says busy, not unreachable, when time ran out waiting for a lock, a statement or a connection", async () => {
    const busy: unknown[] = [
      prismaError("P2024", "Timed out fetching a new connection from the connection pool."),
      prismaError("P2028", "Transaction API error: Unable to start a transaction in the given time."),
      new DriverAdapterError({ kind: "postgres", code: "55P03", severity: "ERROR", message: "canceling statement due to lock timeout", detail: undefined, column: undefined, hint: undefined }),
      new DriverAdapterError({ kind: "postgres", code: "57014", severity: "ERROR", message: "canceling statement due to statement timeout", detail: undefined, column: undefined, hint: undefined }),
      new Error("wrapped", { cause: Object.assign(new Error("lock timeout"), { code: "55P03" }) }),
      new Error("timeout exceeded when trying to connect (every database connection was in use)"),
    ];
    for (const failure of busy) {
      expect(isDatabaseBusy(failure), String(failure)).toBe(true);
      const { res, body } = await answer(failure);
      expect([res.status, body.error_code, res.headers.get("retry-after")]).toEqual([503, ERROR_CODES.database_busy.code, "2"]);
    }
    expect(isDatabaseBusy(new Error("timeout exceeded when trying to connect"))).toBe(false);
    expect(isDatabaseBusy(prismaError("P2034"))).toBe(false);
  });

  it("a real pool whose every connection is held answers busy, not unreachable", async () => {
    const database = await createTestDatabase();
    const prisma = createPrismaClient(database.url, 1);
    try {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let started!: () => void;
      const holding = new Promise<void>((r) => (started = r));
      const holder = prisma.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT 1`;
          started();
          await held;
        },
        { timeout: 20_000 },
      );
      await holding;
      const failure = await prisma.$queryRaw`SELECT 2`.then(
        () => new Error("expected the query to wait for the pool and time out"),
        (e: unknown) => e,
      );
      release();
      await holder;
      const { body } = await answer(failure);
      expect(body.error_code, String(failure)).toBe(ERROR_CODES.database_busy.code);
    } finally {
      await prisma.$disconnect();
      await database.cleanup();
    }
  }, 120_000);

  it("what PostgreSQL refuses is a 4xx by its SQLSTATE, through Prisma's raw queries and node-postgres alike", async () => {
    const database = await createTestDatabase();
    const prisma = createPrismaClient(database.url, 1);
    const failing = async (query: Prisma.Sql) => [
      await prisma.$queryRaw(query).then(() => new Error(`expected ${query.text} to fail`), (e: unknown) => e),
      await queryOne(prisma, query).then(() => new Error(`expected ${query.text} to fail`), (e: unknown) => e),
    ];
    try {
      await prisma.$executeRawUnsafe("CREATE TABLE t (id int PRIMARY KEY, parent int REFERENCES t (id))");
      await prisma.$executeRawUnsafe("INSERT INTO t VALUES (1, NULL)");
      const cases: [Prisma.Sql, number][] = [
        [Prisma.sql`SELECT ${"a\u0000b"}::text AS t`, ERROR_CODES.bad_request.code], // 22021: text it cannot store
        [Prisma.sql`SELECT 2147483647::int + 1`, ERROR_CODES.bad_request.code], // 22003
        [Prisma.sql`SELECT '2026-13-45'::date`, ERROR_CODES.bad_request.code], // 22008
        [Prisma.sql`INSERT INTO t VALUES (1, NULL)`, ERROR_CODES.already_exists.code], // 23505
        [Prisma.sql`INSERT INTO t VALUES (2, 99)`, ERROR_CODES.conflict.code], // 23503
      ];
      for (const [query, code] of cases) {
        for (const failure of await failing(query)) {
          const { res, body } = await answer(failure);
          expect([res.status, body.error_code], `${query.text}: ${String(failure)}`).toEqual([code === ERROR_CODES.bad_request.code ? 400 : 409, code]);
        }
      }
    } finally {
      await prisma.$disconnect();
      await database.cleanup();
    }
  }, 120_000);

  it("does not take ordinary errors for a database outage", () => {
    expect(isDatabaseUnavailable(new Error("boom"))).toBe(false);
    expect(isDatabaseUnavailable(prismaError("P2002"))).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });

  it("answers anything else with a generic 500 without internals", async () => {
    const secret = new Error("relation \"api_tokens\" does not exist at /srv/app/lib/secret.ts:12");
    for (const error of [secret, new TypeError("x is undefined"), "a string", null, { weird: true }, prismaError("P2010", "raw query failed: SELECT secret")]) {
      const { res, body } = await answer(error);
      expect(res.status).toBe(500);
      expect(body.error_code).toBe(5000000);
      expect(body.title).toBe("Internal Server Error");
      expect(body.detail).toBe("An unexpected error occurred. Quote request_id req-1 when reporting it.");
      expect(JSON.stringify(body)).not.toMatch(/api_tokens|secret|undefined|SELECT/);
    }
  });
});

describe("client-chosen keys in parameter_problems", () => {
  it("reports __proto__ and constructor like any other unknown key", () => {
    const schema = z.strictObject({ name: z.string() });
    const result = schema.safeParse(JSON.parse('{"name":"x","__proto__":null,"constructor":1}'));
    expect(result.success).toBe(false);
    const err = fromZodError(result.error!, "validation_failed");
    expect(err.status).toBe(400);
    expect(Object.keys(err.parameterProblems ?? {}).sort()).toEqual(["__proto__", "constructor"]);
    expect(JSON.parse(JSON.stringify(err.parameterProblems))).toHaveProperty(["__proto__"]);
  });
});
