import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The handler opens the database through getPrisma(); point it at this file's test database.
const current = vi.hoisted(() => {
  process.env.LOG_LEVEL = "silent";
  return { prisma: undefined as unknown };
});
vi.mock("@/lib/db", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/db")>()),
  getPrisma: async () => current.prisma,
}));

import { authenticateApiRequest as authenticateWithPreload, sameHash } from "@/lib/api/auth";
import type { Actor } from "@/lib/domain/actor";
import { ApiError } from "@/lib/api/errors";
import { withApi } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { hashApiToken } from "@/lib/domain/access";
import { ZApiErrorSchema } from "@/lib/schemas/error";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

let db: TestDatabase;
const authenticateApiRequest = (req: Request, prisma: TestDatabase["prisma"]) => authenticateWithPreload(req, prisma).then((r) => r.actor);
const TOKEN = "test-token-0123456789abcdef";
const REVOKED = "revoked-token-0123456789";
let tokenId: number;
let editorId: number;
let ws1: number;
let ws2: number;

beforeAll(async () => {
  db = await createTestDatabase();
  current.prisma = db.prisma;
  const p = db.prisma;
  const admin = await p.user.create({ data: { name: "Ada Admin", email: "ada@example.com", isAdmin: true } });
  tokenId = (await p.apiToken.create({ data: { name: "t", prefix: "test-t", tokenHash: hashApiToken(TOKEN), createdById: admin.id } })).id;
  await p.apiToken.create({ data: { name: "r", prefix: "revok", tokenHash: hashApiToken(REVOKED), revokedAt: new Date() } });
  ws1 = (await p.workspace.create({ data: { name: "Sales", companyName: "Acme" } })).id;
  ws2 = (await p.workspace.create({ data: { name: "Legal", companyName: "Acme" } })).id;
  const editor = await p.user.create({
    data: {
      name: "Eve Editor",
      email: "eve.editor@example.com",
      memberships: { create: [{ workspaceId: ws1, role: "editor" }, { workspaceId: ws2, role: "viewer" }] },
    },
  });
  editorId = editor.id;
  await p.user.create({ data: { name: "Ivan Inactive", email: "ivan@example.com", active: false } });
});
afterAll(async () => {
  await db?.cleanup();
});

const request = (headers: Record<string, string>) => new Request("http://localhost/v1/contracts", { headers });

async function rejection(headers: Record<string, string>): Promise<ApiError> {
  const error = await authenticateApiRequest(request(headers), db.prisma).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(401);
  return error as ApiError;
}

describe("sameHash", () => {
  it("is true only for the same text", () => {
    const hash = hashApiToken(TOKEN);
    expect(sameHash(hash, hashApiToken(TOKEN))).toBe(true);
    expect(sameHash("", "")).toBe(true);
    // Differing in the first character, in the last, in case only, or by length.
    expect(sameHash(hash, (hash[0] === "a" ? "b" : "a") + hash.slice(1))).toBe(false);
    expect(sameHash(hash, hash.slice(0, -1) + (hash.at(-1) === "a" ? "b" : "a"))).toBe(false);
    expect(sameHash("abc", "ABC")).toBe(false);
    expect(sameHash(hash, hash.slice(0, -1))).toBe(false);
    expect(sameHash(hash, `${hash}0`)).toBe(false);
  });
});

describe("authenticateApiRequest", () => {
  it("answers 401 missing_api_token without a token", async () => {
    expect((await rejection({})).key).toBe("missing_api_token");
    expect((await rejection({ "x-service-api-token": "" })).key).toBe("missing_api_token");
  });

  it.each([
    ["unknown", "unknown-token-0123456789"],
    ["too short", "short"],
    ["revoked", REVOKED],
  ])("answers 401 invalid_api_token for a %s token", async (_, token) => {
    expect((await rejection({ "x-service-api-token": token })).key).toBe("invalid_api_token");
  });

  it("acts as the anonymous admin without an e-mail header", async () => {
    const actor = await authenticateApiRequest(request({ "x-service-api-token": TOKEN }), db.prisma);
    expect(actor).toEqual({ kind: "anonymous_admin", isAdmin: true, via: "api_token", apiTokenId: tokenId });
  });

  it("acts as the named user, found case-insensitively, with their workspace roles", async () => {
    const actor = await authenticateApiRequest(
      request({ "x-service-api-token": TOKEN, "x-service-user-email": "eve.editor@EXAMPLE.com" }),
      db.prisma,
    );
    expect(actor).toMatchObject({
      kind: "user",
      userId: editorId,
      email: "eve.editor@example.com",
      name: "Eve Editor",
      isAdmin: false,
      via: "api_token",
      apiTokenId: tokenId,
    });
    expect(actor.kind === "user" && [...actor.roles]).toEqual([
      [ws1, "editor"],
      [ws2, "viewer"],
    ]);
  });

  it("knows an admin user as admin", async () => {
    const actor = await authenticateApiRequest(
      request({ "x-service-api-token": TOKEN, "x-service-user-email": "ada@example.com" }),
      db.prisma,
    );
    expect(actor).toMatchObject({ kind: "user", isAdmin: true });
  });

  it.each([
    ["unknown", "nobody@example.com"],
    ["inactive", "ivan@example.com"],
    ["empty", ""],
    ["absurdly long", `${"a".repeat(400)}@example.com`],
    // Pattern characters are literal: they must not match anyone.
    ["wildcard", "%"],
    ["pattern", "eve_editor@example.com"],
    ["pattern with %", "%@example.com"],
  ])("answers 401 unknown_user_email for an %s e-mail", async (_, email) => {
    const e = await rejection({ "x-service-api-token": TOKEN, "x-service-user-email": email });
    expect(e.key).toBe("unknown_user_email");
  });

  it("checks the token before the e-mail", async () => {
    const e = await rejection({ "x-service-api-token": "unknown-token-0123456789", "x-service-user-email": "ada@example.com" });
    expect(e.key).toBe("invalid_api_token");
  });

  it("records last use at most once a minute", async () => {
    const token = "touch-token-0123456789";
    const { id } = await db.prisma.apiToken.create({ data: { name: "touch", prefix: "touch", tokenHash: hashApiToken(token) } });
    const lastUsed = async () => (await db.prisma.apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt;
    const auth = () => authenticateApiRequest(request({ "x-service-api-token": token }), db.prisma);

    await auth();
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await new Promise((r) => setTimeout(r, 20));
    // Within the minute the statement's own reading of the last use says so: no write is even tried.
    const writes = vi.spyOn(db.prisma.apiToken, "updateMany");
    try {
      await auth();
      expect(writes).not.toHaveBeenCalled();
    } finally {
      writes.mockRestore();
    }
    expect(await lastUsed()).toEqual(first);

    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await db.prisma.apiToken.update({ where: { id }, data: { lastUsedAt: twoMinutesAgo } });
    await auth();
    expect((await lastUsed())!.getTime()).toBeGreaterThan(twoMinutesAgo.getTime() + 60_000);
  });
});

describe("withApi authentication", () => {
  const whoAmI = withApi(({ actor }: { actor: Actor }) => json({ kind: actor.kind }), { route: "/v1/whoami" });

  it("answers 401 in the error shape before the handler runs", async () => {
    const res = await whoAmI(request({ "x-service-api-token": "unknown-token-0123456789" }));
    expect(res.status).toBe(401);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(ZApiErrorSchema.parse(await res.json())).toMatchObject({ status: 401, error_code: 4010002 });
  });

  it("gives the handler the actor", async () => {
    const res = await whoAmI(request({ "x-service-api-token": TOKEN, "x-service-user-email": "ada@example.com" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ kind: "user" });
  });
});
