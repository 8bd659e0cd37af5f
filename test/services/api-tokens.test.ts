import { afterAll, beforeAll, expect, test } from "vitest";
import { loadUserActor } from "@/lib/api/auth";
import type { TUserActor } from "@/lib/domain/actor";
import { hashApiToken, MIN_API_TOKEN_LENGTH } from "@/lib/domain/access";
import type { PrismaClient } from "@/lib/db";
import { createUser } from "@/lib/db/seed/factories";
import { ZApiTokenSchema } from "@/lib/schemas/api-token";
import { createApiToken } from "@/lib/services/api-tokens/create-api-token";
import { listApiTokens } from "@/lib/services/api-tokens/list-api-tokens";
import { revokeApiToken } from "@/lib/services/api-tokens/revoke-api-token";
import { serializeApiToken } from "@/lib/services/api-tokens/api-token-record";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";

let db: TestDatabase;
let adminId: number;
let admin: TUserActor;

beforeAll(async () => {
  db = await createTestDatabase();
  adminId = (await createUser(db.prisma, { isAdmin: true })).id;
  admin = (await loadUserActor(db.prisma, { id: adminId }, { via: "session", apiTokenId: null }))!;
});
afterAll(() => db?.cleanup());

test("a created token is returned once and stored only as its hash, with an audit event", async () => {
  const { token, apiToken } = await createApiToken({ db: db.prisma, actor: admin, name: "CRM sync", requestId: "req-1" });

  expect(token.length).toBeGreaterThanOrEqual(MIN_API_TOKEN_LENGTH);
  expect(token.startsWith(apiToken.prefix)).toBe(true);
  expect(apiToken.prefix.length).toBeLessThan(token.length / 2 + 1);

  const row = await db.prisma.apiToken.findUniqueOrThrow({ where: { id: apiToken.id } });
  expect(row.tokenHash).toBe(hashApiToken(token));
  expect(JSON.stringify(row)).not.toContain(token);
  expect(row.createdById).toBe(adminId);

  const events = await db.prisma.auditEvent.findMany({ where: { entityType: "api_token", entityId: apiToken.id } });
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ action: "api_token.create", actorUserId: adminId, via: "session", requestId: "req-1", before: null });
  expect(JSON.stringify(events[0])).not.toContain(token);
  expect(JSON.stringify(events[0])).not.toContain(row.tokenHash);
});

test("the list has every token, newest first, in the API's shape", async () => {
  const older = await createApiToken({ db: db.prisma, actor: admin, name: "Older" });
  const newer = await createApiToken({ db: db.prisma, actor: admin, name: "Newer" });
  const list = (await listApiTokens({ db: db.prisma })).map(serializeApiToken);

  const ids = list.map((t) => t.id);
  expect(ids.indexOf(newer.apiToken.id)).toBeLessThan(ids.indexOf(older.apiToken.id));
  for (const item of list) {
    expect(ZApiTokenSchema.parse(item)).toEqual(item);
    expect(Object.keys(item).sort()).toEqual(["created_time", "id", "last_used_time", "name", "prefix", "revoked_time"]);
  }
});

test("revoking sets the revoked time once, audits once, and is idempotent", async () => {
  const { apiToken } = await createApiToken({ db: db.prisma, actor: admin, name: "To revoke" });

  const revoked = await revokeApiToken({ db: db.prisma, actor: admin, id: apiToken.id, requestId: "req-2" });
  expect(revoked.revokedAt).toBeInstanceOf(Date);
  const again = await revokeApiToken({ db: db.prisma, actor: admin, id: apiToken.id });
  expect(again.revokedAt).toEqual(revoked.revokedAt);

  const events = await db.prisma.auditEvent.findMany({ where: { action: "api_token.revoke", entityId: apiToken.id } });
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ actorUserId: adminId, via: "session", requestId: "req-2" });
  expect((events[0]!.before as { revoked_time: unknown }).revoked_time).toBeNull();
  expect((events[0]!.after as { revoked_time: unknown }).revoked_time).toBe(serializeApiToken(revoked).revoked_time);
});

test("concurrent revokes of one token write one audit event", async () => {
  const { apiToken } = await createApiToken({ db: db.prisma, actor: admin, name: "Raced" });
  await Promise.all(Array.from({ length: 5 }, () => revokeApiToken({ db: db.prisma, actor: admin, id: apiToken.id })));
  expect(await db.prisma.auditEvent.count({ where: { action: "api_token.revoke", entityId: apiToken.id } })).toBe(1);
});

test("revoking an unknown token is a 404 and changes nothing", async () => {
  const before = await db.prisma.auditEvent.count();
  await expect(revokeApiToken({ db: db.prisma, actor: admin, id: 999_999 })).rejects.toMatchObject({ status: 404, key: "resource_not_found" });
  expect(await db.prisma.auditEvent.count()).toBe(before);
});

test("a failed audit write leaves no token behind", async () => {
  // The audit event is the change's one raw statement (lib/services/audit/audit-event-insert-sql.ts).
  const failingAudit = db.prisma.$extends({
    query: {
      $executeRaw: () => Promise.reject(new Error("audit log unavailable")),
    },
  }) as unknown as PrismaClient;
  const before = await db.prisma.apiToken.count();
  await expect(createApiToken({ db: failingAudit, actor: admin, name: "Orphan" })).rejects.toThrow("audit log unavailable");
  expect(await db.prisma.apiToken.count()).toBe(before);

  const { apiToken } = await createApiToken({ db: db.prisma, actor: admin, name: "Survivor" });
  await expect(revokeApiToken({ db: failingAudit, actor: admin, id: apiToken.id })).rejects.toThrow("audit log unavailable");
  expect((await db.prisma.apiToken.findUniqueOrThrow({ where: { id: apiToken.id } })).revokedAt).toBeNull();
});
