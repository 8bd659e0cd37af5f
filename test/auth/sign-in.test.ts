import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AUTH_SECRET_SETTING, createAuth, isSecureRequest, loadAuthSecret, type TAuth } from "@/lib/auth/server";
import { readSessionUser } from "@/lib/auth/session";
import { clearSignInAttempts, consumeSignInAttempt } from "@/lib/auth/sign-in-throttle";
import { createUser } from "@/lib/db/seed/factories";
import { AUTH_TEST_ORIGIN, AUTH_TEST_PASSWORD, authOnTestDatabase } from "@/test/helpers/auth";
import type { TestDatabase } from "@/test/helpers/db";

const ORIGIN = AUTH_TEST_ORIGIN;
const PASSWORD = AUTH_TEST_PASSWORD;

let db: TestDatabase;
let auth: TAuth;
beforeAll(async () => ({ db, auth } = await authOnTestDatabase()));
afterAll(() => db?.cleanup());

function signIn(email: string, password: string, headers: Record<string, string> = {}) {
  return auth.handler(
    new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN, "x-forwarded-for": "192.0.2.10", ...headers },
      body: JSON.stringify({ email, password }),
    }),
  );
}

/** The cookie a browser would send back after `res`. */
function cookieFrom(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";", 1)[0]!)
    .join("; ");
}

describe("sign-in with the credentials the seed factories store", () => {
  test("the right password starts a database session that getSessionUser recognises", async () => {
    const user = await createUser(db.prisma, { password: PASSWORD, isAdmin: true });
    const res = await signIn(user.email.toUpperCase(), PASSWORD);
    expect(res.status).toBe(200);
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/contracts-admin\.session_token=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);

    const sessionUser = await readSessionUser(auth, new Headers({ cookie: cookieFrom(res) }));
    const session = await db.prisma.session.findFirstOrThrow({ where: { userId: user.id } });
    expect(sessionUser).toEqual({ userId: user.id, sessionId: session.id, name: user.name, email: user.email, isAdmin: true });
  });

  test("a wrong password or unknown e-mail is refused with one message", async () => {
    const user = await createUser(db.prisma, { password: PASSWORD });
    const wrong = await signIn(user.email, "not the password");
    const unknown = await signIn("nobody@example.com", PASSWORD);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect((await wrong.json()).code).toBe("INVALID_EMAIL_OR_PASSWORD");
    expect((await unknown.json()).code).toBe("INVALID_EMAIL_OR_PASSWORD");
  });

  test("an inactive user cannot sign in, and loses an existing session", async () => {
    const user = await createUser(db.prisma, { password: PASSWORD });
    const first = await signIn(user.email, PASSWORD);
    expect(first.status).toBe(200);
    const cookie = cookieFrom(first);
    await db.prisma.user.update({ where: { id: user.id }, data: { active: false } });

    expect(await readSessionUser(auth, new Headers({ cookie }))).toBeNull();
    // The right password and a wrong one get the same answer: the refusal confirms nothing.
    const right = await signIn(user.email, PASSWORD);
    const wrong = await signIn(user.email, "not the password");
    expect([right.status, await right.json()]).toEqual([401, { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" }]);
    expect([wrong.status, await wrong.json()]).toEqual([401, { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" }]);
    expect(await db.prisma.session.count({ where: { userId: user.id } })).toBe(1);
  });

  test("sign-up is not offered", async () => {
    const res = await auth.handler(
      new Request(`${ORIGIN}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN },
        body: JSON.stringify({ email: "new@example.com", password: PASSWORD, name: "New" }),
      }),
    );
    expect(res.status).toBe(404);
    expect(await db.prisma.user.count({ where: { email: "new@example.com" } })).toBe(0);
  });

  test("sign-in attempts per client IP are limited, counted in the database", async () => {
    const ip = "198.51.100.7";
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await signIn(`ip-${i}@example.com`, "x-password", { "x-forwarded-for": ip })).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect(await db.prisma.rateLimit.count({ where: { key: { startsWith: ip } } })).toBe(1);
  });
});

describe("failed sign-ins per account", () => {
  test("the sixth attempt within the window is refused until the window has passed", async () => {
    const email = "Throttle@Example.com";
    const t0 = 1_000_000_000_000;
    for (let i = 0; i < 5; i++) expect(await consumeSignInAttempt(db.prisma, email, undefined, t0 + i)).toEqual({ allowed: true });
    expect(await consumeSignInAttempt(db.prisma, "throttle@example.com ", undefined, t0 + 10_000)).toEqual({ allowed: false, retryAfterSeconds: 51 });
    expect(await consumeSignInAttempt(db.prisma, email, undefined, t0 + 4 + 60_000)).toEqual({ allowed: true });
  });

  test("concurrent attempts cannot exceed the limit", async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => consumeSignInAttempt(db.prisma, "burst@example.com")));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });

  test("a successful sign-in clears the count", async () => {
    for (let i = 0; i < 5; i++) await consumeSignInAttempt(db.prisma, "clear@example.com");
    await clearSignInAttempts(db.prisma, "clear@example.com");
    expect(await consumeSignInAttempt(db.prisma, "clear@example.com")).toEqual({ allowed: true });
  });
});

describe("cookies over https", () => {
  test("are Secure and __Secure- prefixed, and open the session", async () => {
    const secureAuth = createAuth({ prisma: db.prisma, secret: await loadAuthSecret(db.prisma), secure: true });
    const user = await createUser(db.prisma, { password: PASSWORD });
    const res = await secureAuth.handler(
      new Request("https://contracts.example.com/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "https://contracts.example.com" },
        body: JSON.stringify({ email: user.email, password: PASSWORD }),
      }),
    );
    expect(res.status).toBe(200);
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^__Secure-contracts-admin\.session_token=/);
    expect(setCookie).toMatch(/; Secure/);
    const cookie = cookieFrom(res);
    expect(await readSessionUser(secureAuth, new Headers({ cookie }))).toMatchObject({ userId: user.id });
  });

  test("are chosen from the request's protocol as the proxy reports it", () => {
    expect(isSecureRequest(new Headers({ "x-forwarded-proto": "https" }))).toBe(true);
    expect(isSecureRequest(new Headers({ "x-forwarded-proto": "https, http" }))).toBe(true);
    expect(isSecureRequest(new Headers({ "x-forwarded-proto": "http" }), "https://x.example/")).toBe(false);
    expect(isSecureRequest(new Headers(), "https://x.example/")).toBe(true);
    expect(isSecureRequest(new Headers(), "http://127.0.0.1:3000/")).toBe(false);
  });
});

test("the generated secret is stored once and reused", async () => {
  const first = await loadAuthSecret(db.prisma);
  expect(first.length).toBeGreaterThanOrEqual(32);
  expect(await loadAuthSecret(db.prisma)).toBe(first);
  expect(await db.prisma.appSetting.count({ where: { key: AUTH_SECRET_SETTING } })).toBe(1);
});
