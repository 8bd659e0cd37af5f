import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PrismaClient } from "@/lib/db";
import { createPrismaClient } from "@/lib/db/pool";
import { createContract, createUser } from "@/lib/db/seed/factories";
import { startServerOnFreshDatabase } from "@/test/helpers/fresh-server";
import { TEST_ADMIN_PASSWORD, TEST_API_TOKEN, type RunningServer } from "@/test/helpers/server";

// Issue 5, promise 7: one JSON log line per request (method, route, status, duration, request id,
// user id); an internal error's stack in the log, never in the answer; and no secret in the log:
// not the API token, not a password, not the session cookie. This file runs its own server at
// level info and reads what it writes.

let server: RunningServer;
let db: PrismaClient;
let admin: { id: number; email: string };
let editor: { id: number; name: string; email: string };
let contractId: number;
const EDITOR_PASSWORD = `editor-log-password-${Date.now()}`;
const WRONG_PASSWORD = `wrong-log-password-${Date.now()}`;
/** Secrets that turn up during the tests, all checked against the whole log at the end. */
const secrets: Record<string, string> = { apiToken: TEST_API_TOKEN, adminPassword: TEST_ADMIN_PASSWORD, editorPassword: EDITOR_PASSWORD, wrongPassword: WRONG_PASSWORD };

beforeAll(async () => {
  server = await startServerOnFreshDatabase({ LOG_LEVEL: "info" });
  db = createPrismaClient(server.databaseUrl, 1);
  admin = await db.user.findUniqueOrThrow({ where: { email: "admin@example.com" } });
  const sales = await db.workspace.findFirstOrThrow({ where: { name: "Sales" } });
  const template = await db.template.findFirstOrThrow({ where: { name: "Mutual NDA" } });
  editor = await createUser(db, { password: EDITOR_PASSWORD, memberships: [{ workspaceId: sales.id, role: "editor" }] });
  contractId = (await createContract(db, { workspaceId: sales.id, templateId: template.id, owner: editor })).id;
}, 180_000);

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

type LogLine = Record<string, any>;

/** The server's JSON log lines (Next's own start-up banner is plain text and skipped). */
function logLines(): LogLine[] {
  return server
    .logs()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

/** The log lines of one request, once the request line has arrived (stdout is a pipe). */
async function linesOf(requestId: string): Promise<LogLine[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const lines = logLines().filter((l) => l.request_id === requestId);
    if (lines.some((l) => l.msg === "request") || Date.now() > deadline) return lines;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function requestLine(requestId: string): Promise<LogLine> {
  const lines = (await linesOf(requestId)).filter((l) => l.msg === "request");
  expect(lines, `request lines of ${requestId}`).toHaveLength(1);
  return lines[0]!;
}

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.baseUrl}${path}`, { headers });
  return { res, text: await res.text() };
}

const asAdmin = { "x-service-api-token": TEST_API_TOKEN, "x-service-user-email": "admin@example.com" };

describe("one JSON line per request", () => {
  test("has method, route pattern, status, duration, request id and user id", async () => {
    const { res } = await get(`/v1/contracts/${contractId}`, { ...asAdmin, "x-request-id": "trace-log-1" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("trace-log-1");
    const line = await requestLine("trace-log-1");
    expect(line).toMatchObject({
      level: "info",
      msg: "request",
      method: "GET",
      route: "/v1/contracts/{contract_id}",
      path: `/v1/contracts/${contractId}`,
      status: 200,
      request_id: "trace-log-1",
      user_id: admin.id,
    });
    expect(typeof line.duration_ms).toBe("number");
    expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    expect(typeof line.api_token_id).toBe("number");
    expect(Date.parse(line.time)).not.toBeNaN();
  });

  test("an error answer's request_id is the X-Request-Id header and the log line's", async () => {
    const { res, text } = await get("/v1/contracts/2147483647", { ...asAdmin, "x-service-user-email": editor.email });
    const body = JSON.parse(text);
    expect(res.status).toBe(404);
    const id = res.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.request_id).toBe(id);
    expect(await requestLine(id)).toMatchObject({ method: "GET", route: "/v1/contracts/{contract_id}", status: 404, user_id: editor.id });
  });

  test("a refused caller is logged with status 401 and no user", async () => {
    const { res, text } = await get("/v1/workspaces", { "x-service-api-token": "not-a-real-token-0123456789" });
    expect(res.status).toBe(401);
    const id = JSON.parse(text).request_id;
    expect(await requestLine(id)).toMatchObject({ route: "/v1/workspaces", status: 401, user_id: null, api_token_id: null });
  });

  test("every request of a burst gets its own line", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `burst-${i}-${Date.now()}`);
    const answers = await Promise.all(ids.map((id, i) => get(i % 2 ? "/v1/workspaces" : "/v1/ping", { ...asAdmin, "x-request-id": id })));
    expect(answers.map((a) => a.res.status)).toEqual(ids.map(() => 200));
    for (const [i, id] of ids.entries()) {
      expect(await requestLine(id)).toMatchObject({ route: i % 2 ? "/v1/workspaces" : "/v1/ping", status: 200 });
    }
  });

  test("a request with the staff session is logged with the session's user", async () => {
    const cookie = await signIn(editor.email, EDITOR_PASSWORD);
    const { res } = await get("/v1/workspaces", { cookie, "x-request-id": "trace-session-1" });
    expect(res.status).toBe(200);
    expect(await requestLine("trace-session-1")).toMatchObject({ status: 200, user_id: editor.id, api_token_id: null });
  });

  test("an odd incoming X-Request-Id is replaced, not written to the log", async () => {
    const odd = "evil id\twith spaces {\"level\":\"error\"}";
    const res = await fetch(`${server.baseUrl}/v1/ping`, { headers: { "x-request-id": odd } });
    const id = res.headers.get("x-request-id")!;
    expect(id).not.toBe(odd);
    await requestLine(id);
    expect(await server.settledLogs()).not.toContain("evil id");
  });
});

describe("internal errors", () => {
  test("the stack goes to the log under the request id, the answer says only what to quote", async () => {
    // Break this server's own database under it: the next template type query fails inside Prisma.
    await db.$executeRawUnsafe(`ALTER TABLE template_types RENAME COLUMN description TO description_moved`);
    const { res, text } = await get("/v1/template_types", asAdmin).finally(() =>
      db.$executeRawUnsafe(`ALTER TABLE template_types RENAME COLUMN description_moved TO description`),
    );
    expect(res.status, text).toBe(500);
    const body = JSON.parse(text);
    const id = res.headers.get("x-request-id")!;
    expect(body).toMatchObject({ status: 500, error_code: 5000000, request_id: id });
    expect(body.detail).toBe(`An unexpected error occurred. Quote request_id ${id} when reporting it.`);
    // Nothing of the cause in the answer: no stack frames, no driver message, no column.
    for (const leak of [/\bat\s+\S+\s+\(/, /\.js:\d+/, /node_modules/, /prisma/i, /description_moved/, /column/i]) {
      expect(text).not.toMatch(leak);
    }

    const lines = await linesOf(id);
    expect(lines.find((l) => l.msg === "request")).toMatchObject({ status: 500, route: "/v1/template_types", user_id: admin.id });
    const failure = lines.find((l) => l.msg === "request failed");
    expect(failure).toMatchObject({ level: "error", request_id: id });
    expect(JSON.stringify(failure!.error)).toMatch(/description/);
    expect(failure!.error.stack).toMatch(/\n\s+at /);

    // And it is over: the same request works again.
    expect((await get("/v1/template_types", asAdmin)).res.status).toBe(200);
  });
});

async function signIn(email: string, password: string): Promise<string> {
  const res = await fetch(`${server.baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status, await res.text()).toBe(200);
  const cookie = res.headers.getSetCookie().map((c) => c.split(";", 1)[0]).join("; ");
  // The session token itself: the part of the cookie after the name.
  for (const part of cookie.split("; ")) secrets[`cookie ${part.split("=", 1)[0]}`] = part.slice(part.indexOf("=") + 1);
  return cookie;
}

describe("no secrets in the log", () => {
  test("tokens, passwords and cookies never appear, whatever the request", async () => {
    // Failed and successful sign-ins, JSON and form-encoded.
    const wrong = await fetch(`${server.baseUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.baseUrl },
      body: JSON.stringify({ email: editor.email, password: WRONG_PASSWORD }),
    });
    expect(wrong.status).toBe(401);
    const form = await fetch(`${server.baseUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl },
      body: new URLSearchParams({ email: editor.email, password: WRONG_PASSWORD }).toString(),
    });
    expect(form.status).toBeGreaterThanOrEqual(400);
    const adminCookie = await signIn("admin@example.com", TEST_ADMIN_PASSWORD);

    // A token created on the tokens page, then used, then used wrongly.
    const created = await fetch(`${server.baseUrl}/api/tokens`, {
      method: "POST",
      headers: { cookie: adminCookie, origin: server.baseUrl, "content-type": "application/json" },
      body: JSON.stringify({ name: "log test" }),
    });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };
    secrets.createdToken = token;
    expect((await get("/v1/users", { "x-service-api-token": token })).res.status).toBe(200);
    expect((await get("/v1/users", { "x-service-api-token": `${token}x` })).res.status).toBe(401);
    // Credentials sent where they do not belong, and a failing write with the cookie.
    expect((await get("/v1/ping", { "x-service-api-token": token, cookie: adminCookie })).res.status).toBe(200);
    const put = await fetch(`${server.baseUrl}/v1/contracts/${contractId}/parties/1/participants/1`, {
      method: "PUT",
      headers: { cookie: adminCookie, "content-type": "application/json" },
      body: JSON.stringify({ title: "no origin" }),
    });
    expect(put.status).toBe(403);
    // A server error while authenticated: the cause is logged, the credentials are not.
    await db.$executeRawUnsafe(`ALTER TABLE template_types RENAME COLUMN name TO name_moved`);
    try {
      expect((await get("/v1/template_types", { "x-service-api-token": token, cookie: adminCookie })).res.status).toBe(500);
    } finally {
      await db.$executeRawUnsafe(`ALTER TABLE template_types RENAME COLUMN name_moved TO name`);
    }
    // Let the last lines arrive.
    await new Promise((r) => setTimeout(r, 300));

    const log = server.logs();
    expect(log.length).toBeGreaterThan(1_000);
    expect(Object.keys(secrets)).toEqual(expect.arrayContaining(["createdToken", "cookie contracts-admin.session_token"]));
    for (const [what, value] of Object.entries(secrets)) {
      expect(value.length, what).toBeGreaterThanOrEqual(8);
      expect(log.includes(value), `${what} in the log`).toBe(false);
      expect(log.includes(encodeURIComponent(value)), `${what} (URL-encoded) in the log`).toBe(false);
      expect(log.includes(decodeURIComponent(value)), `${what} (URL-decoded) in the log`).toBe(false);
    }
    // No request headers at all: neither the Cookie header nor the token header is logged.
    expect(log).not.toMatch(/session_token=/);
    expect(log).not.toMatch(/"cookie"/i);
    expect(log).not.toMatch(/x-service-api-token/i);
  });
});
