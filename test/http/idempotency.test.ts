import { randomUUID } from "node:crypto";
import { beforeAll, expect, test } from "vitest";
import { api, serverDb } from "@/test/helpers/http";

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
