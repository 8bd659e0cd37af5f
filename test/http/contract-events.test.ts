// Issue 13: a contract's audit trail, GET /v1/contracts/{contract_id}/events.
import { beforeAll, describe, expect, test } from "vitest";
import { createUser } from "@/lib/db/seed/factories";
import { ZAuditEventListSchema, type TAuditEvent } from "@/lib/schemas";
import { api, baseUrl, serverDb } from "@/test/helpers/http";
import { TEST_API_TOKEN } from "@/test/helpers/server";
import { createHttpReadWorld } from "@/test/http/read-world";

type World = Awaited<ReturnType<typeof createHttpReadWorld>>;
let w: World;
let token: { id: number; name: string };
const as = (who: keyof World["users"]) => w.users[who].email;
const events = (id: number, email?: string, query = "") => api(`/v1/contracts/${id}/events${query}`, { email });

/** A contract made through the API (so its creation is audited), with one counterparty participant. */
async function newContract(email = as("editor")) {
  const res = await api("/v1/contracts/create", {
    email,
    body: {
      workspace_id: w.workspaces.mine.id,
      template_id: w.templates.template.id,
      name: `Audited ${Date.now()}`,
      parties: [{ type: "company", name: "Buyer AB", participants: [{ name: "Ann", email: "ann@example.org" }] }],
    },
  });
  expect(res.status, res.text).toBe(200);
  const party = res.json.parties.find((p: { my_party: boolean }) => !p.my_party);
  const participant = `/v1/contracts/${res.json.id}/parties/${party.id}/participants/${party.participants[0].id}`;
  return { id: res.json.id as number, participant };
}

beforeAll(async () => {
  w = await createHttpReadWorld({ contracts: 0 });
  // The seed's token, which the test calls with; found by its hash like the server does.
  const { hashApiToken } = await import("@/lib/domain/access");
  token = await serverDb().apiToken.findUniqueOrThrow({ where: { tokenHash: hashApiToken(TEST_API_TOKEN) }, select: { id: true, name: true } });
});

describe("GET /v1/contracts/{contract_id}/events", () => {
  test("newest first: who (user and token by name), how, and each field from → to", async () => {
    const c = await newContract();
    const put = await api(c.participant, { method: "PUT", email: as("editor"), body: { title: "Buyer", _permissions: { "contract:update": true } } });
    expect(put.status, put.text).toBe(200);

    const res = await events(c.id, as("editor"));
    expect(res.status).toBe(200);
    const list = ZAuditEventListSchema.parse(res.json);
    expect(list.count).toBe(2);
    expect(list.data.map((e) => e.action)).toEqual(["participant.update", "contract.create"]);
    const [update, create] = list.data as [TAuditEvent, TAuditEvent];
    expect(update).toMatchObject({
      entity_type: "participant",
      via: "api_token",
      actor: { type: "user", id: w.users.editor.id, name: w.users.editor.name, email: w.users.editor.email, api_token: token },
      changes: [
        { field: "title", from: "", to: "Buyer" },
        { field: "_permissions.contract:update", from: false, to: true },
      ],
    });
    expect(update.id).toBeGreaterThan(create.id);
    expect(create).toMatchObject({ entity_type: "contract", entity_id: c.id });
    expect(create.changes).toContainEqual({ field: "state", from: null, to: "draft" });
    expect(new URL(res.json._links.self.href).pathname).toBe(`/v1/contracts/${c.id}/events`);
  });

  test("nothing secret: neither the token nor its hash or prefix", async () => {
    const c = await newContract();
    const stored = await serverDb().apiToken.findUniqueOrThrow({ where: { id: token.id } });
    const text = (await events(c.id, as("editor"))).text;
    for (const secret of [TEST_API_TOKEN, stored.tokenHash, stored.prefix]) expect(text).not.toContain(secret);
    expect(text).not.toContain("request_id");
  });

  test("the anonymous admin shows as its API token; a session user without one", async () => {
    const c = await newContract();
    expect((await api(c.participant, { method: "PUT", body: { title: "By the token" } })).status).toBe(200);
    const [anonymous] = (await events(c.id)).json.data as TAuditEvent[];
    expect(anonymous).toMatchObject({ via: "api_token", actor: { type: "api_token", id: token.id, name: token.name } });
    expect(anonymous!.actor).not.toHaveProperty("email");

    const password = "events-session-password";
    const user = await createUser(serverDb(), { password, memberships: [{ workspaceId: w.workspaces.mine.id, role: "editor" }] });
    const signIn = await fetch(`${baseUrl()}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl() },
      body: JSON.stringify({ email: user.email, password }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie().map((part) => part.split(";")[0]).join("; ");
    const put = await fetch(`${baseUrl()}${c.participant}`, {
      method: "PUT",
      headers: { cookie, origin: baseUrl(), "content-type": "application/json" },
      body: JSON.stringify({ title: "By session" }),
    });
    expect(put.status).toBe(200);
    const [bySession] = (await events(c.id)).json.data as TAuditEvent[];
    expect(bySession).toMatchObject({
      via: "session",
      actor: { type: "user", id: user.id, name: user.name, email: user.email },
      changes: [{ field: "title", from: "By the token", to: "By session" }],
    });
    expect(bySession!.actor).not.toHaveProperty("api_token");
  });

  test("visible exactly as the contract is: a viewer reads it, another workspace's user gets 404", async () => {
    const c = await newContract();
    expect((await events(c.id, as("viewer"))).status).toBe(200);
    const hidden = await events(c.id, as("outsider"));
    expect([hidden.status, hidden.json.error_code]).toEqual([404, 4040001]);
    expect((await api(`/v1/contracts/${c.id}`, { email: as("outsider") })).status).toBe(404);
    expect((await events(w.hidden.id, as("editor"))).status).toBe(404);
    expect((await events(2_000_000_000, as("editor"))).status).toBe(404);
  });

  test("paginated: limit and offset, links; limit=all and bad values are 400", async () => {
    const c = await newContract();
    for (const title of ["One", "Two"]) expect((await api(c.participant, { method: "PUT", email: as("editor"), body: { title } })).status).toBe(200);
    const first = await events(c.id, as("editor"), "?limit=1");
    expect(first.json.count).toBe(3);
    expect(first.json.data.map((e: TAuditEvent) => e.changes)).toEqual([[{ field: "title", from: "One", to: "Two" }]]);
    const next = new URL(first.json._links.next.href);
    expect([next.pathname, next.searchParams.get("limit"), next.searchParams.get("offset")]).toEqual([`/v1/contracts/${c.id}/events`, "1", "1"]);
    const second = await events(c.id, as("editor"), "?limit=1&offset=1");
    expect(second.json.data[0].changes).toEqual([{ field: "title", from: "", to: "One" }]);
    const last = await events(c.id, as("editor"), "?limit=2&offset=2");
    expect([last.json.data.map((e: TAuditEvent) => e.action), last.json._links.next.href]).toEqual([["contract.create"], null]);
    for (const query of ["?limit=all", "?limit=0", "?offset=-1", "?limit=101"]) expect((await events(c.id, as("editor"), query)).status).toBe(400);
    expect((await api("/v1/contracts/01/events")).status).toBe(400);
  });

  test("a deleted contract's events are kept but no longer readable, even by an admin", async () => {
    const c = await newContract();
    expect((await api(`/v1/contracts/${c.id}`, { method: "DELETE", email: as("editor") })).status).toBe(204);
    for (const email of [as("editor"), undefined]) {
      const res = await events(c.id, email);
      expect([res.status, res.json.error_code]).toEqual([404, 4040001]);
    }
    const kept = await serverDb().auditEvent.findMany({ where: { contractId: c.id }, orderBy: { id: "asc" } });
    expect(kept.map((e) => e.action)).toEqual(["contract.create", "contract.delete"]);
  });

  test("only GET", async () => {
    const c = await newContract();
    const res = await api(`/v1/contracts/${c.id}/events`, { method: "POST", body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("GET");
  });
});
