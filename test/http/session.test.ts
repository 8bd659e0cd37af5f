import { beforeAll, expect, test } from "vitest";
import { createContract, createUser } from "@/lib/db/seed/factories";
import { baseUrl, serverDb } from "@/test/helpers/http";

// Our own pages call /v1 with the staff session cookie instead of the token headers; a change
// made that way must come from this app's own pages (Origin), so a cross-site post cannot.

const PASSWORD = "session-test-password";
let cookie: string;
let participantPath: string;

beforeAll(async () => {
  const db = serverDb();
  const sales = await db.workspace.findFirstOrThrow({ where: { name: "Sales" } });
  const template = await db.template.findFirstOrThrow({ where: { name: "Mutual NDA" } });
  const user = await createUser(db, { password: PASSWORD, memberships: [{ workspaceId: sales.id, role: "editor" }] });
  const contract = await createContract(db, {
    workspaceId: sales.id, templateId: template.id, owner: user,
    counterparties: [{ type: "company", name: "Session AB", participants: [{ name: "Sam Session", email: "sam@example.org" }] }],
  });
  const party = await db.party.findFirstOrThrow({ where: { contractId: contract.id, myParty: false }, include: { participants: true } });
  participantPath = `/v1/contracts/${contract.id}/parties/${party.id}/participants/${party.participants[0]!.id}`;

  const res = await fetch(`${baseUrl()}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl() },
    body: JSON.stringify({ email: user.email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  expect(cookie).toMatch(/session_token=/);
});

test("a signed-in session reads /v1 without token headers, limited to its workspaces", async () => {
  const res = await fetch(`${baseUrl()}/v1/workspaces`, { headers: { cookie } });
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.data.map((w: { name: string }) => w.name)).toEqual(["Sales"]);
  expect(body.count).toBe(1);
});

test("without a session or token: 401", async () => {
  const res = await fetch(`${baseUrl()}/v1/workspaces`);
  expect(res.status).toBe(401);
});

test("a change with the session needs this site's Origin (CSRF defence)", async () => {
  const put = (headers: Record<string, string>) =>
    fetch(`${baseUrl()}${participantPath}`, { method: "PUT", headers: { cookie, "content-type": "application/json", ...headers }, body: JSON.stringify({ title: "Changed" }) });
  const noOrigin = await put({});
  expect(noOrigin.status).toBe(403);
  expect((await noOrigin.json()).error_code).toBe(4030003);
  const crossSite = await put({ origin: "https://evil.example" });
  expect(crossSite.status).toBe(403);
  expect((await serverDb().participant.findFirstOrThrow({ where: { name: "Sam Session" } })).title).toBe("");

  const sameSite = await put({ origin: baseUrl() });
  expect(sameSite.status).toBe(200);
  expect((await sameSite.json()).title).toBe("Changed");
});
