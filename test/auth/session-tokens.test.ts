import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { hashSessionToken } from "@/lib/auth/hashed-session-tokens";
import type { TAuth } from "@/lib/auth/server";
import { readSessionUser } from "@/lib/auth/session";
import { createUser } from "@/lib/db/seed/factories";
import { AUTH_TEST_ORIGIN as ORIGIN, AUTH_TEST_PASSWORD as PASSWORD, authOnTestDatabase } from "@/test/helpers/auth";
import type { TestDatabase } from "@/test/helpers/db";

// Issue 10, item 8: a copy of the sessions table (a backup, a dump) must not be a list of live
// cookies. The database holds SHA-256 of each session token; the cookie carries the token.
let db: TestDatabase;
let auth: TAuth;
beforeAll(async () => ({ db, auth } = await authOnTestDatabase()));
afterAll(() => db?.cleanup());

async function signIn(email: string) {
  const res = await auth.handler(
    new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN },
      body: JSON.stringify({ email, password: PASSWORD }),
    }),
  );
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().map((c) => c.split(";", 1)[0]!).join("; ");
  // The cookie is `<token>.<signature>`, URL-encoded.
  const token = decodeURIComponent(/session_token=([^;]+)/.exec(cookie)![1]!).split(".")[0]!;
  return { cookie, token };
}

describe("session tokens at rest", () => {
  test("the row holds the token's SHA-256, never the token, and the cookie still works", async () => {
    const user = await createUser(db.prisma, { password: PASSWORD });
    const { cookie, token } = await signIn(user.email);
    const rows = await db.prisma.session.findMany({ where: { userId: user.id } });
    expect(rows.map((r) => r.token)).toEqual([hashSessionToken(token)]);
    expect(token).toHaveLength(32);
    expect(await readSessionUser(auth, new Headers({ cookie }))).toMatchObject({ userId: user.id });
  });

  test("a cookie forged from a stolen row opens nothing", async () => {
    const user = await createUser(db.prisma, { password: PASSWORD });
    await signIn(user.email);
    const row = await db.prisma.session.findFirstOrThrow({ where: { userId: user.id } });
    // Signed as the server would sign it: still refused, since the row holds no token.
    const forged = await auth.$context.then((ctx) => ctx.secret);
    const { makeSignature } = await import("better-auth/crypto");
    const signature = await makeSignature(row.token, forged);
    const cookie = `contracts-admin.session_token=${encodeURIComponent(`${row.token}.${signature}`)}`;
    expect(await readSessionUser(auth, new Headers({ cookie }))).toBeNull();
  });

  test("get-session (which may refresh the expiry) answers and keeps the hash", async () => {
    const user = await createUser(db.prisma, { password: PASSWORD });
    const { cookie, token } = await signIn(user.email);
    const before = await db.prisma.session.findFirstOrThrow({ where: { userId: user.id } });
    // Make the session old enough that better-auth extends it (updateAge is one day).
    await db.prisma.session.update({ where: { id: before.id }, data: { expiresAt: new Date(Date.now() + 2 * 24 * 3600 * 1000) } });
    const res = await auth.handler(new Request(`${ORIGIN}/api/auth/get-session`, { headers: { cookie } }));
    expect(res.status).toBe(200);
    expect((await res.json()).user.email).toBe(user.email);
    const after = await db.prisma.session.findFirstOrThrow({ where: { id: before.id } });
    expect(after.token).toBe(hashSessionToken(token));
    expect(after.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
  });

  test("signing out deletes the session it names", async () => {
    const user = await createUser(db.prisma, { password: PASSWORD });
    const { cookie } = await signIn(user.email);
    const res = await auth.handler(new Request(`${ORIGIN}/api/auth/sign-out`, { method: "POST", headers: { cookie, origin: ORIGIN } }));
    expect(res.status).toBe(200);
    expect(await db.prisma.session.count({ where: { userId: user.id } })).toBe(0);
    expect(await readSessionUser(auth, new Headers({ cookie }))).toBeNull();
  });

  test("the migration hashes the tokens of sessions that existed before", async () => {
    const user = await createUser(db.prisma, { password: PASSWORD });
    const token = "T".repeat(32);
    await db.prisma.$executeRaw`INSERT INTO sessions (token, user_id, expires_at, updated_at) VALUES (${token}, ${user.id}, now() + interval '1 day', now())`;
    const { readFile } = await import("node:fs/promises");
    const sql = await readFile("prisma/migrations/20261123180000_hash_session_tokens/migration.sql", "utf8");
    await db.prisma.$executeRawUnsafe(sql);
    await db.prisma.$executeRawUnsafe(sql); // applied twice, still hashed once
    const row = await db.prisma.session.findFirstOrThrow({ where: { userId: user.id } });
    expect(row.token).toBe(hashSessionToken(token));
  });
});
