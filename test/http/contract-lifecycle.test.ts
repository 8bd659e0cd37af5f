// Issue 13 (first part): finding contracts by name, and deleting them.
import { beforeAll, describe, expect, test } from "vitest";
import { createContract } from "@/lib/db/seed/factories";
import { api, serverDb } from "@/test/helpers/http";
import { createHttpReadWorld } from "@/test/http/read-world";

type World = Awaited<ReturnType<typeof createHttpReadWorld>>;
let w: World;
const as = (who: keyof World["users"]) => w.users[who].email;

beforeAll(async () => {
  w = await createHttpReadWorld({ contracts: 0 });
});

function contractNamed(name: string, state: "draft" | "pending" | "signed" = "draft") {
  return serverDb().$transaction((tx) =>
    createContract(tx, { workspaceId: w.workspaces.mine.id, templateId: w.templates.template.id, name, state, owner: w.users.editor }),
  );
}

describe("GET /v1/contracts?q=", () => {
  const tag = `Q${Date.now()}`;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    ids.percent = (await contractNamed(`${tag} Alpha 100% deal`)).id;
    ids.lower = (await contractNamed(`${tag} alpha beta`)).id;
    ids.underscore = (await contractNamed(`${tag} gamma_delta`)).id;
    ids.plain = (await contractNamed(`${tag} Gamma delta`)).id;
  });
  const search = (q: string, email = as("editor")) => api(`/v1/contracts?q=${encodeURIComponent(q)}&sort=id`, { email });

  test("matches names containing the text, in any letter case, and links keep it", async () => {
    const res = await search(`${tag} ALPHA`);
    expect(res.status).toBe(200);
    expect(res.json.data.map((c: { id: number }) => c.id)).toEqual([ids.percent, ids.lower]);
    expect(res.json.count).toBe(2);
    expect(new URL(res.json._links.self.href).searchParams.get("q")).toBe(`${tag} ALPHA`);
  });

  // Words match as words (punctuation around them is no part of them); one term of letters, digits and hyphens also inside words.
  test("% and _ are text, not wildcards", async () => {
    expect((await search(`${tag} Alpha 100%`)).json.data.map((c: { id: number }) => c.id)).toEqual([ids.percent]);
    expect((await search(`${tag} gamma_`)).json.data.map((c: { id: number }) => c.id)).toEqual([ids.underscore, ids.plain]);
    // Several terms match as words only: `d` is no word of either (inside words: one term of letters, digits and hyphens).
    expect((await search(`${tag} gamma_d`)).json.count).toBe(0);
    expect((await search(`${tag} g%a`)).json.count).toBe(0);
    expect((await search(`${tag} g_mma`)).json.count).toBe(0);
    expect((await search("g_mma")).json.count).toBe(0);
  });

  test("stays within what the caller may see", async () => {
    expect((await search(tag, as("outsider"))).json.count).toBe(0);
    expect((await search(tag, as("viewer"))).json.count).toBe(4);
  });

  test.each([["", "must not be empty"], ["   ", "must not be empty"], ["x".repeat(101), "must be at most 100 characters"]])(
    "q=%j is a 400 naming q",
    async (q, message) => {
      const res = await api(`/v1/contracts?q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(400);
      expect(res.json.parameter_problems).toEqual({ q: [message] });
    },
  );
});

describe("DELETE /v1/contracts/{contract_id}", () => {
  const del = (id: number, email?: string, headers?: Record<string, string>) => api(`/v1/contracts/${id}`, { method: "DELETE", email, headers });

  test("an editor deletes a draft: 204, then 404 everywhere, its rows gone, the deletion audited", async () => {
    const c = await contractNamed("Delete me");
    const res = await del(c.id, as("editor"));
    expect([res.status, res.text]).toEqual([204, ""]);
    expect((await api(`/v1/contracts/${c.id}`, { email: as("editor") })).status).toBe(404);
    expect((await api(`/v1/contracts/${c.id}/parties`, { email: as("editor") })).status).toBe(404);
    expect((await del(c.id, as("editor"))).status).toBe(404);
    const db = serverDb();
    expect(await db.party.count({ where: { contractId: c.id } })).toBe(0);
    expect(await db.contractDataField.count({ where: { contractId: c.id } })).toBe(0);
    const events = await db.auditEvent.findMany({ where: { contractId: c.id, action: "contract.delete" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorUserId: w.users.editor.id, before: { id: c.id, name: "Delete me", state: "draft" } });
  });

  test("a viewer gets 403, a user of another workspace 404, and the contract stays", async () => {
    const c = await contractNamed("Keep me");
    expect((await del(c.id, as("viewer"))).json.error_code).toBe(4030001);
    expect((await del(c.id, as("outsider"))).json.error_code).toBe(4040001);
    expect((await api(`/v1/contracts/${c.id}`, { email: as("editor") })).status).toBe(200);
  });

  test("only a draft, unless an admin deletes it", async () => {
    const pending = await contractNamed("Sent out", "pending");
    const refused = await del(pending.id, as("editor"));
    expect([refused.status, refused.json.error_code]).toEqual([409, 4090004]);
    expect(await serverDb().contract.count({ where: { id: pending.id } })).toBe(1);
    expect((await del(pending.id)).status).toBe(204); // the anonymous admin
    expect(await serverDb().contract.count({ where: { id: pending.id } })).toBe(0);
  });

  test("a bad id is a 400, and the route documents DELETE", async () => {
    expect((await del(0)).json.error_code).toBe(4000005);
    const spec = (await api("/v1/openapi.json", { token: null })).json;
    expect(Object.keys(spec.paths["/v1/contracts/{contract_id}"]).sort()).toEqual(["delete", "get"]);
    expect(Object.keys(spec.paths["/v1/contracts/{contract_id}"].delete.responses)).toContain("204");
  });
});
