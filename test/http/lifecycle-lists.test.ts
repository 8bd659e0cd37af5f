// Issue 44 parts 4 and 5 over HTTP, on the production server: the contracts list's lifecycle
// filters and sorts, the CSV download (headers, streamed body parsed back, formula cells, other
// workspaces absent) and the calendar feed (made, renewed and revoked through the session-only
// route; fetched without credentials and parsed by ical.js; 404 once revoked, renewed or inactive).
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, test } from "vitest";
import { createContract, createTemplate, createUser, createWorkspace } from "@/lib/db/seed/factories";
import { api, baseUrl, serverDb } from "@/test/helpers/http";
import { parseIcs } from "@/test/helpers/ical";
import { setLifecycleColumnsForTest } from "@/test/helpers/lifecycle-columns";

const PASSWORD = "lifecycle-lists-password-1";
let viewer: { id: number; email: string };
let ids: Record<"a1" | "a2" | "aFormula" | "b1", number>;
let wsA: number;

beforeAll(async () => {
  const db = serverDb();
  const a = await createWorkspace(db, { name: `Lists A ${Date.now()}` });
  const b = await createWorkspace(db, { name: `Lists B ${Date.now()}` });
  wsA = a.id;
  viewer = await createUser(db, { password: PASSWORD, memberships: [{ workspaceId: a.id, role: "viewer" }] });
  const template = await createTemplate(db, { workspaceIds: [a.id, b.id] });
  const make = async (workspaceId: number, name: string) => (await createContract(db, { workspaceId, templateId: template.id, name, counterparties: [] })).id;
  ids = { a1: await make(a.id, "Cleaning"), a2: await make(a.id, "Licence"), aFormula: await make(a.id, "=1+2"), b1: await make(b.id, "Beta") };
  const soon = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  await setLifecycleColumnsForTest(db, ids.a1, { state: "active", noticeDeadline: soon(10), endsOn: soon(40) });
  await setLifecycleColumnsForTest(db, ids.a2, { state: "active", subState: "canceled", endsOn: soon(20) });
  await setLifecycleColumnsForTest(db, ids.b1, { state: "active", noticeDeadline: soon(5), endsOn: soon(6) });
});

async function signIn(): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl() },
    body: JSON.stringify({ email: viewer.email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie().map((c) => c.split(";", 1)[0]).join("; ");
}

describe("the contracts list's lifecycle filters and sorts", () => {
  test("filter and sort, in the caller's workspaces only; bad values are a 400 naming the parameter", async () => {
    const active = await api(`/v1/contracts?workspace_id=${wsA}&lifecycle_state=active&sort=end_date`, { email: viewer.email });
    expect([active.status, active.json.count, active.json.data.map((c: { id: number }) => c.id)]).toEqual([200, 2, [ids.a2, ids.a1]]);
    expect(active.json._links.self.href).toContain("lifecycle_state=active");
    const canceled = await api("/v1/contracts?lifecycle_state=canceled", { email: viewer.email });
    expect(canceled.json.data.map((c: { id: number }) => c.id)).toEqual([ids.a2]);
    // b1's deadline is sooner, but in a workspace the viewer cannot see.
    const deadlines = await api("/v1/contracts?notice_deadline_after=2000-01-01&sort=notice_deadline", { email: viewer.email });
    expect(deadlines.json.data.map((c: { id: number }) => c.id)).toEqual([ids.a1]);
    for (const query of ["lifecycle_state=signed", "ends_before=2027-02-30", "notice_deadline_after=soon", "sort=end", "renewed_after=2026-01-01"]) {
      const res = await api(`/v1/contracts?${query}`, { email: viewer.email });
      expect([query, res.status, Object.keys(res.json.parameter_problems ?? {})]).toEqual([query, 400, [query.split("=")[0]]]);
    }
  });
});

describe("GET /v1/contracts/export.csv", () => {
  test("streams the list as CSV: its filters and order, the caller's workspaces, formula cells neutralised", async () => {
    const res = await fetch(`${baseUrl()}/v1/contracts/export.csv?sort=-id`, { headers: { "x-service-api-token": (await import("@/test/helpers/server")).TEST_API_TOKEN, "x-service-user-email": viewer.email } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="contracts-\d{4}-\d\d-\d\d\.csv"$/);
    expect(res.headers.get("cache-control")).toContain("no-store");
    // Streamed: no length known up front.
    expect(res.headers.get("content-length")).toBeNull();
    const rows = parse(await res.text(), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => Number(r.id))).toEqual([ids.aFormula, ids.a2, ids.a1]);
    expect(rows[0]!.name).toBe("'=1+2");
    expect(rows[1]).toMatchObject({ lifecycle_state: "active", lifecycle_sub_state: "canceled" });
    const refused = await api("/v1/contracts/export.csv?lifecycle_state=nope", { email: viewer.email });
    expect([refused.status, Object.keys(refused.json.parameter_problems)]).toEqual([400, ["lifecycle_state"]]);
    // A time PostgreSQL cannot hold (the year 0) is the list's 400 here too, before any of the CSV is sent.
    for (const path of ["/v1/contracts", "/v1/contracts/export.csv"]) {
      const old = await api(`${path}?updated_before=0000-01-01T00:00:00Z`, { email: viewer.email });
      expect([path, old.status, old.json.status]).toEqual([path, 400, 400]);
    }
  });
});

describe("the calendar feed", () => {
  test("made, fetched without credentials and parsed by ical.js; renewing kills the old URL, revoking kills it, an inactive user has none", async () => {
    const cookie = await signIn();
    const session = (method: string) => fetch(`${baseUrl()}/api/calendar-feed`, { method, headers: { cookie, origin: baseUrl(), "content-type": "application/json" }, body: method === "POST" ? "{}" : undefined });
    expect(await (await session("GET")).json()).toEqual({ active: false });
    // An API token cannot manage a feed (session only), and a change must come from this app's pages.
    expect((await api("/api/calendar-feed", { email: viewer.email })).status).toBe(401);
    expect((await api("/api/calendar-feed", { method: "POST", body: {}, email: viewer.email })).status).toBe(403);
    const made = await session("POST");
    expect(made.status).toBe(201);
    const { url } = (await made.json()) as { url: string };
    expect(url).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const path = new URL(url).pathname;

    const feed = await fetch(`${baseUrl()}${path}`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const text = await feed.text();
    expect(text).toContain("\r\nBEGIN:VEVENT\r\n");
    const events = parseIcs(text).events;
    expect(events.map((e) => e.summary).sort()).toEqual(["Contract ends: Cleaning", "Contract ends: Licence", "Notice deadline: Cleaning"]);
    expect(events.every((e) => e.allDay && e.url.endsWith(`/contracts/${e.url.split("/").pop()}`))).toBe(true);

    const renewed = (await (await session("POST")).json()) as { url: string };
    expect((await fetch(`${baseUrl()}${path}`)).status).toBe(404);
    const newPath = new URL(renewed.url).pathname;
    expect((await fetch(`${baseUrl()}${newPath}`)).status).toBe(200);
    expect((await session("DELETE")).status).toBe(204);
    expect((await fetch(`${baseUrl()}${newPath}`)).status).toBe(404);
    expect((await fetch(`${baseUrl()}/api/calendar/not-a-feed.ics`)).status).toBe(404);

    const again = (await (await session("POST")).json()) as { url: string };
    await serverDb().user.update({ where: { id: viewer.id }, data: { active: false } });
    expect((await fetch(`${baseUrl()}${new URL(again.url).pathname}`)).status).toBe(404);
    await serverDb().user.update({ where: { id: viewer.id }, data: { active: true } });
  });
});
