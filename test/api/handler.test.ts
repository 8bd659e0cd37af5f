import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";

const db = vi.hoisted(() => {
  process.env.LOG_LEVEL = "info"; // these tests read the log lines
  return { getPrisma: vi.fn<() => Promise<unknown>>(), readyPrisma: vi.fn<() => unknown>() };
});
// The statements and SQL helpers of lib/db are the real ones; only the opening is replaced.
vi.mock("@/lib/db", async (importOriginal) => ({ ...(await importOriginal<typeof import("@/lib/db")>()), getPrisma: db.getPrisma, readyPrisma: db.readyPrisma }));

import * as catchAll from "@/app/v1/[...path]/route";
import { ApiError } from "@/lib/api/errors";
import { methodNotAllowed, withApi } from "@/lib/api/endpoint";
import { json, jsonText } from "@/lib/api/response";
import { ZApiErrorSchema } from "@/lib/schemas/error";

const noParams = { params: Promise.resolve({}) };
const get = (path = "/v1/ping", headers: Record<string, string> = {}, method = "GET") =>
  new Request(`http://localhost:3000${path}`, { method, headers });

let stdout: MockInstance;
// The logger writes each line to stdout as it is logged (lib/logger.ts): one object per line.
const logLines = () => {
  return stdout.mock.calls.flatMap(([chunk]) =>
    String(chunk)
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>),
  );
};

beforeEach(() => {
  stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  db.getPrisma.mockReset();
  db.readyPrisma.mockReset();
});
afterEach(() => {
  stdout.mockRestore();
});

describe("withApi", () => {
  it("runs the handler and adds X-Request-Id and Cache-Control: no-store", async () => {
    const handler = withApi(({ url }) => json({ path: url.pathname }), { route: "/v1/ping", auth: false, database: false });
    const res = await handler(get(), noParams);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ path: "/v1/ping" });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(db.getPrisma).not.toHaveBeenCalled();
  });

  it("reuses a sane incoming X-Request-Id and replaces an odd one", async () => {
    const handler = withApi(() => json({}), { route: "/v1/ping", auth: false, database: false });
    expect((await handler(get("/v1/ping", { "x-request-id": "abc-123.DEF_4" }))).headers.get("x-request-id")).toBe("abc-123.DEF_4");
    for (const odd of ["has space", "x".repeat(200), "<script>"]) {
      const id = (await handler(get("/v1/ping", { "x-request-id": odd }))).headers.get("x-request-id");
      expect(id).not.toBe(odd);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("passes route params, joining catch-all segments", async () => {
    const handler = withApi(({ params }) => json(params), { route: "/x/{id}", auth: false, database: false });
    const res = await handler(get("/x/12"), { params: Promise.resolve({ id: "12", rest: ["a", "b"], none: undefined }) });
    expect(await res.json()).toEqual({ id: "12", rest: "a/b" });
  });

  it("writes one JSON log line per request, without headers or bodies", async () => {
    const handler = withApi(() => json({ ok: true }, { status: 201 }), { route: "/v1/things/{id}", auth: false, database: false });
    await handler(get("/v1/things/7?secret=q", { "x-request-id": "rid-1", "x-service-api-token": "cst_supersecrettoken123" }));
    const lines = logLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: "info",
      msg: "request",
      method: "GET",
      route: "/v1/things/{id}",
      path: "/v1/things/7",
      status: 201,
      request_id: "rid-1",
      user_id: null,
    });
    expect(typeof lines[0]?.time).toBe("string");
    expect(typeof lines[0]?.duration_ms).toBe("number");
    expect(JSON.stringify(lines)).not.toMatch(/supersecret|secret=q/);
  });

  it("maps a thrown ApiError to the error shape with the request id", async () => {
    const handler = withApi(
      () => {
        throw new ApiError("contract_not_editable", "The contract is signed.");
      },
      { route: "/x", auth: false, database: false },
    );
    const res = await handler(get("/x", { "x-request-id": "rid-2" }));
    expect(res.status).toBe(409);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = ZApiErrorSchema.parse(await res.json());
    expect(body).toMatchObject({ error_code: 4090001, request_id: "rid-2", type: "http://localhost:3000/v1/error_codes/4090001" });
    expect(logLines().filter((l) => l.level === "error")).toHaveLength(0);
  });

  it("answers an unexpected error with a bare 500 and logs its stack under the request id", async () => {
    const handler = withApi(
      () => {
        throw new Error("secret internals at db.ts:12");
      },
      { route: "/x", auth: false, database: false },
    );
    const res = await handler(get("/x", { "x-request-id": "rid-3" }));
    expect(res.status).toBe(500);
    expect(JSON.stringify(await res.json())).not.toContain("secret internals");
    const errorLine = logLines().find((l) => l.level === "error");
    expect(errorLine).toMatchObject({ request_id: "rid-3", error: { message: "secret internals at db.ts:12" } });
    expect(String((errorLine?.error as { stack?: string }).stack)).toContain("handler.test.ts");
    expect(logLines().find((l) => l.msg === "request")).toMatchObject({ status: 500, request_id: "rid-3" });
  });

  it("answers 503 with Retry-After when the database cannot be opened", async () => {
    db.getPrisma.mockRejectedValue(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }));
    const handler = withApi(() => json({}), { route: "/v1/contracts" });
    const res = await handler(get("/v1/contracts", { "x-service-api-token": "whatever-token-value" }), noParams);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    const body = ZApiErrorSchema.parse(await res.json());
    expect(body.error_code).toBe(5030001);
    expect(body.detail).not.toContain("ECONNREFUSED");
    const errorLine = logLines().find((l) => l.level === "error");
    expect(JSON.stringify(errorLine)).toContain("ECONNREFUSED");
  });

  it("gives handlers without auth the database and a null actor", async () => {
    const fake = { fake: true };
    db.getPrisma.mockResolvedValue(fake);
    const handler = withApi(({ prisma, actor }) => json({ same: prisma === (fake as unknown), actor }), {
      route: "/v1/ping",
      auth: false,
    });
    expect(await (await handler(get())).json()).toEqual({ same: true, actor: null });
  });

  it("takes the database already open without waiting for it", async () => {
    const fake = { fake: true };
    db.readyPrisma.mockReturnValue(fake);
    const handler = withApi(({ prisma }) => json({ same: prisma === (fake as unknown) }), { route: "/v1/ping", auth: false });
    expect(await (await handler(get())).json()).toEqual({ same: true });
    expect(db.getPrisma).not.toHaveBeenCalled();
  });

  it("keeps the headers of responses whose headers are immutable", async () => {
    const handler = withApi(() => Response.redirect("http://localhost:3000/elsewhere", 302), {
      route: "/x",
      auth: false,
      database: false,
    });
    const res = await handler(get("/x"));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("http://localhost:3000/elsewhere");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("jsonText", () => {
  it("answers JSON with the handler's own headers however they are given, and keeps a Content-Type it sets", async () => {
    const headersOf = (r: Response) => Object.fromEntries(r.headers);
    expect(headersOf(jsonText('{"a":1}'))).toEqual({ "content-type": "application/json" });
    for (const given of [{ ETag: '"p1-v2"' }, new Headers({ ETag: '"p1-v2"' }), [["ETag", '"p1-v2"']] as [string, string][]]) {
      const r = jsonText('{"a":1}', { status: 201, headers: given });
      expect(r.status).toBe(201);
      expect(headersOf(r)).toEqual({ "content-type": "application/json", etag: '"p1-v2"' });
      expect(await r.text()).toBe('{"a":1}');
    }
    const withType: HeadersInit[] = [{ "content-type": "application/problem+json" }, { "Content-Type": "application/problem+json", ETag: "x" }, new Headers({ "Content-Type": "application/problem+json" })];
    for (const given of withType) {
      expect(jsonText("{}", { headers: given }).headers.get("content-type")).toBe("application/problem+json");
    }
  });
});

describe("methodNotAllowed", () => {
  it("answers 405 in the error shape with Allow", async () => {
    const res = await methodNotAllowed(["GET", "PUT"])(get("/v1/contracts/1", {}, "DELETE"), noParams);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, PUT");
    expect(ZApiErrorSchema.parse(await res.json())).toMatchObject({ error_code: 4050000, status: 405 });
  });
});

describe("the /v1 catch-all route", () => {
  it.each(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const)("answers %s with 404 route_not_found", async (method) => {
    const res = await catchAll[method](get("/v1/nope/1", {}, method), { params: Promise.resolve({ path: ["nope", "1"] }) });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(ZApiErrorSchema.parse(await res.json())).toMatchObject({ error_code: 4040002 });
    expect(db.getPrisma).not.toHaveBeenCalled();
  });
});
