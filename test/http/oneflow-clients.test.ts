// Issue 14: clients written for the Oneflow API (e.g. its Power Automate connector) work unchanged:
// their header names, their trailing slashes, and the fields they read.
import { beforeAll, describe, expect, test } from "vitest";
import { createContract } from "@/lib/db/seed/factories";
import { TEST_API_TOKEN } from "@/test/helpers/server";
import { api, baseUrl, serverDb } from "@/test/helpers/http";
import { createHttpReadWorld } from "@/test/http/read-world";

type World = Awaited<ReturnType<typeof createHttpReadWorld>>;
let w: World;

beforeAll(async () => {
  w = await createHttpReadWorld({ contracts: 0 });
});

const draft = (name = "Oneflow client") =>
  serverDb().$transaction((tx) => createContract(tx, { workspaceId: w.workspaces.mine.id, templateId: w.templates.template.id, name, owner: w.users.editor }));

const oneflow = (email?: string, extra: Record<string, string> = {}) => ({
  token: null,
  headers: { "x-oneflow-api-token": TEST_API_TOKEN, ...(email ? { "x-oneflow-user-email": email } : {}), ...extra },
});

describe("x-oneflow-api-token and x-oneflow-user-email", () => {
  test("are the same credentials as ours: the same user, the same permissions", async () => {
    const c = await draft();
    const theirs = await api(`/v1/contracts/${c.id}`, oneflow(w.users.editor.email));
    const ours = await api(`/v1/contracts/${c.id}`, { email: w.users.editor.email });
    expect(theirs.status).toBe(200);
    expect(theirs.json).toEqual(ours.json);
    expect((await api(`/v1/contracts/${c.id}`, oneflow(w.users.outsider.email))).status).toBe(404);
    // Mixed names work too; a wrong token under their name is still a 401.
    expect((await api(`/v1/contracts/${c.id}`, { token: null, headers: { "x-oneflow-api-token": TEST_API_TOKEN, "x-service-user-email": w.users.editor.email } })).status).toBe(200);
    expect((await api(`/v1/contracts/${c.id}`, { token: null, headers: { "x-oneflow-api-token": "x".repeat(40) } })).status).toBe(401);
  });

  test("both names with different values is a 400; with the same value it is fine", async () => {
    const c = await draft();
    const twoTokens = await api(`/v1/contracts/${c.id}`, { headers: { "x-oneflow-api-token": "y".repeat(40) } });
    expect([twoTokens.status, twoTokens.json.error_code]).toEqual([400, 4000021]);
    const twoUsers = await api(`/v1/contracts/${c.id}`, { email: w.users.editor.email, headers: { "x-oneflow-user-email": w.users.viewer.email } });
    expect([twoUsers.status, twoUsers.json.error_code]).toEqual([400, 4000021]);
    expect((await api(`/v1/contracts/${c.id}`, { email: w.users.editor.email, headers: { "x-oneflow-api-token": TEST_API_TOKEN, "x-oneflow-user-email": w.users.editor.email } })).status).toBe(200);
    // A refused request changes nothing.
    const del = await api(`/v1/contracts/${c.id}`, { method: "DELETE", email: w.users.editor.email, headers: { "x-oneflow-user-email": w.users.viewer.email } });
    expect(del.status).toBe(400);
    expect(await serverDb().contract.count({ where: { id: c.id } })).toBe(1);
  });
});

describe("trailing slashes", () => {
  /** As a client that does not follow redirects sees it. */
  const raw = (path: string, method = "GET") =>
    fetch(`${baseUrl()}${path}`, { method, redirect: "manual", headers: { "x-oneflow-api-token": TEST_API_TOKEN, "x-oneflow-user-email": w.users.editor.email } });

  test("GET /v1/contracts/{id}/ answers as without the slash, never a redirect", async () => {
    const c = await draft();
    const res = await raw(`/v1/contracts/${c.id}/`);
    expect([res.status, res.headers.get("location")]).toEqual([200, null]);
    expect(((await res.json()) as { id: number }).id).toBe(c.id);
    const list = await raw(`/v1/contracts/?limit=1`);
    expect([list.status, ((await list.json()) as { data: unknown[] }).data.length]).toEqual([200, 1]);
  });

  test("DELETE /v1/contracts/{id}/ deletes (the connector's own path)", async () => {
    const c = await draft();
    expect((await raw(`/v1/contracts/${c.id}/`, "DELETE")).status).toBe(204);
    expect(await serverDb().contract.count({ where: { id: c.id } })).toBe(0);
  });

  test("pages keep their redirect", async () => {
    const res = await fetch(`${baseUrl()}/contracts/`, { redirect: "manual" });
    expect(res.status).toBe(308);
  });
});

describe("fields Oneflow clients read", () => {
  test("template types carry active", async () => {
    const res = await api(`/v1/template_types/${w.type.id}`);
    expect(res.json.active).toBe(true);
    await serverDb().templateType.update({ where: { id: w.type.id }, data: { active: false } });
    expect((await api(`/v1/template_types/${w.type.id}`)).json.active).toBe(false);
    await serverDb().templateType.update({ where: { id: w.type.id }, data: { active: true } });
  });

  test("workspaces carry _links.self, which answers the same workspace to those who see it and 404 to others", async () => {
    const list = await api(`/v1/workspaces?limit=100`, { email: w.users.editor.email });
    const mine = list.json.data.find((x: { id: number }) => x.id === w.workspaces.mine.id);
    expect(new URL(mine._links.self.href).pathname).toBe(`/v1/workspaces/${w.workspaces.mine.id}`);
    const self = await api(new URL(mine._links.self.href).pathname, { email: w.users.editor.email });
    expect([self.status, self.json]).toEqual([200, mine]);
    expect((await api(`/v1/workspaces/${w.workspaces.mine.id}`, { email: w.users.outsider.email })).status).toBe(404);
    expect((await api(`/v1/workspaces/${w.workspaces.other.id}`, { email: w.users.editor.email })).status).toBe(404);
    expect((await api(`/v1/workspaces/999999`)).status).toBe(404);
    expect((await api(`/v1/workspaces/abc`)).status).toBe(400);
  });
});
