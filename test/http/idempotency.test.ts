import { randomUUID } from "node:crypto";
import { beforeAll, expect, test } from "vitest";
import { hashApiToken } from "@/lib/domain/access";
import { createUser } from "@/lib/db/seed/factories";
import { api, baseUrl, serverDb } from "@/test/helpers/http";

// Issue 5, promise 3: retries of POST /v1/contracts/create with an Idempotency-Key are safe.

let body: { workspace_id: number; template_id: number; name: string; parties: unknown[] };

beforeAll(async () => {
  const db = serverDb();
  const sales = await db.workspace.findFirstOrThrow({ where: { name: "Sales" } });
  const template = await db.template.findFirstOrThrow({ where: { name: "Mutual NDA" } });
  body = {
    workspace_id: sales.id,
    template_id: template.id,
    name: "",
    parties: [{ type: "company", name: "Retry AB", participants: [{ name: "Rita Retry", email: "rita@example.org" }] }],
  };
});

const create = (name: string, key: string, extra: { email?: string; body?: object } = {}) =>
  api("/v1/contracts/create", { method: "POST", body: { ...body, name, ...extra.body }, email: extra.email ?? "admin@example.com", headers: { "idempotency-key": key } });
const countNamed = (name: string) => serverDb().contract.count({ where: { name } });

test("a retry with the same key and body answers the first result and creates nothing", async () => {
  const name = `Idempotent ${randomUUID()}`;
  const key = randomUUID();
  const first = await create(name, key);
  expect(first.status).toBe(200);
  const again = await create(name, key);
  expect(again.status).toBe(200);
  expect(again.json.id).toBe(first.json.id);
  expect(again.json).toEqual(first.json);
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(await countNamed(name)).toBe(1);
});

test("the same key with a different body is a 409 with its own code", async () => {
  const key = randomUUID();
  const name = `Idempotent ${randomUUID()}`;
  expect((await create(name, key)).status).toBe(200);
  const other = await create(`${name} changed`, key);
  expect(other.status).toBe(409);
  expect(other.json.error_code).toBe(4090002);
  expect(await countNamed(`${name} changed`)).toBe(0);
});

test("20 concurrent identical requests with one key create exactly one contract", async () => {
  const name = `Idempotent burst ${randomUUID()}`;
  const key = randomUUID();
  const answers = await Promise.all(Array.from({ length: 20 }, () => create(name, key)));
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
  expect(await countNamed(name)).toBe(1);
});

test("keys are scoped to the token and user, and expire after 24 hours", async () => {
  const name = `Idempotent scope ${randomUUID()}`;
  const key = randomUUID();
  const admin = await create(name, key);
  const anonymous = await api("/v1/contracts/create", { method: "POST", body: { ...body, name }, headers: { "idempotency-key": key } });
  expect(anonymous.status).toBe(200);
  expect(anonymous.json.id).not.toBe(admin.json.id);
  expect(await countNamed(name)).toBe(2);

  await serverDb().idempotencyKey.updateMany({ where: { key }, data: { expiresAt: new Date(Date.now() - 1000) } });
  const afterExpiry = await create(name, key);
  expect(afterExpiry.status).toBe(200);
  expect(afterExpiry.json.id).not.toBe(admin.json.id);
  expect(await countNamed(name)).toBe(3);
});

test("a malformed key is a 400", async () => {
  const res = await create("x", "bad key with spaces");
  expect(res.status).toBe(400);
  expect(res.json.parameter_problems).toHaveProperty(["Idempotency-Key"]);
});

test("a refused create is not remembered: a retry is judged afresh, and the corrected body with the same key creates", async () => {
  const name = `Idempotent refused ${randomUUID()}`;
  const key = randomUUID();
  const refused = await create(name, key, { body: { workspace_id: 2_000_000_000 } });
  expect(refused.status).toBe(404);
  expect(await serverDb().idempotencyKey.count({ where: { key } })).toBe(0);
  const refusedAgain = await create(name, key, { body: { workspace_id: 2_000_000_000 } });
  expect(refusedAgain.status).toBe(404);
  expect(refusedAgain.headers.get("idempotent-replayed")).toBeNull();
  expect(refusedAgain.json.request_id).not.toBe(refused.json.request_id);

  const corrected = await create(name, key);
  expect(corrected.status).toBe(200);
  expect(corrected.headers.get("idempotent-replayed")).toBeNull();
  expect(corrected.json.name).toBe(name);
  expect(await countNamed(name)).toBe(1);
});

test("keys are scoped per API token: the same key, body and user under two tokens create two contracts", async () => {
  const otherToken = `idempotency-other-token-${randomUUID()}`;
  await serverDb().apiToken.create({ data: { name: "Idempotency scope", prefix: otherToken.slice(0, 10), tokenHash: hashApiToken(otherToken) } });
  const name = `Idempotent per token ${randomUUID()}`;
  const key = randomUUID();
  const send = (token?: string) =>
    api("/v1/contracts/create", { method: "POST", body: { ...body, name }, email: "admin@example.com", token, headers: { "idempotency-key": key } });
  const first = await send();
  const second = await send(otherToken);
  expect([first.status, second.status]).toEqual([200, 200]);
  expect(second.headers.get("idempotent-replayed")).toBeNull();
  expect(second.json.id).not.toBe(first.json.id);
  // Each token's retry gets its own answer.
  const retry = await send(otherToken);
  expect(retry.headers.get("idempotent-replayed")).toBe("true");
  expect(retry.json.id).toBe(second.json.id);
  expect(await countNamed(name)).toBe(2);
});

test("keys are scoped per session user, and a session never shares a key with an API token acting for the same user", async () => {
  const db = serverDb();
  const sales = await db.workspace.findFirstOrThrow({ where: { name: "Sales" } });
  const password = "idempotency-session-password";
  const signIn = async (email: string) => {
    const res = await fetch(`${baseUrl()}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl() },
      body: JSON.stringify({ email, password }),
    });
    expect(res.status).toBe(200);
    return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  };
  const [ann, bob] = await Promise.all(
    ["ann", "bob"].map((who) => createUser(db, { email: `${who}-${randomUUID()}@example.org`, password, memberships: [{ workspaceId: sales.id, role: "editor" }] })),
  );
  const cookies = { ann: await signIn(ann!.email), bob: await signIn(bob!.email) };
  const name = `Idempotent per session ${randomUUID()}`;
  const key = randomUUID();
  const withSession = async (cookie: string) => {
    const res = await fetch(`${baseUrl()}/v1/contracts/create`, {
      method: "POST",
      headers: { cookie, origin: baseUrl(), "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify({ ...body, name }),
    });
    return { status: res.status, replayed: res.headers.get("idempotent-replayed"), json: await res.json() };
  };
  const annFirst = await withSession(cookies.ann);
  const bobFirst = await withSession(cookies.bob);
  const annByToken = await create(name, key, { email: ann!.email });
  expect([annFirst.status, bobFirst.status, annByToken.status]).toEqual([200, 200, 200]);
  expect(new Set([annFirst.json.id, bobFirst.json.id, annByToken.json.id]).size).toBe(3);
  expect([bobFirst.replayed, annByToken.headers.get("idempotent-replayed")]).toEqual([null, null]);
  const annRetry = await withSession(cookies.ann);
  expect(annRetry.replayed).toBe("true");
  expect(annRetry.json.id).toBe(annFirst.json.id);
  expect(await countNamed(name)).toBe(3);
});
