// The contract's life after signing over HTTP (docs/lifecycle.md): the routes' answers and their
// 400/403/404/409 shapes. Dates are set in the past or the future of the real clock; nothing waits.
import { beforeAll, describe, expect, test } from "vitest";
import { atTime } from "@/lib/clock";
import { createContract, createUser, createWorkspaceWithTemplate } from "@/lib/db/seed/factories";
import { startLifecycle } from "@/lib/services/lifecycle/start-lifecycle";
import { api, serverDb } from "@/test/helpers/http";

let ws: { id: number };
let template: { id: number };
let editor: { id: number; name: string; email: string };
let viewer: { id: number; email: string };
const DAY = 86_400_000;

beforeAll(async () => {
  ({ workspace: ws, template, members: { editor, viewer } } = await serverDb().$transaction((tx) =>
    createWorkspaceWithTemplate(tx, { workspace: { name: `Lifecycle ${Date.now()}` }, members: ["editor", "viewer"] }),
  ));
});

const draft = () =>
  serverDb().$transaction((tx) =>
    createContract(tx, { workspaceId: ws.id, templateId: template.id, owner: editor, counterparties: [{ type: "individual", participant: { name: "Ann" } }] }),
  );

/** A signed contract with `term` whose last signature was `signedAgoMs` ago (its lifecycle started then). */
async function signed(term: Record<string, unknown>, signedAgoMs = 0) {
  const c = await draft();
  const put = await api(`/v1/contracts/${c.id}/lifecycle_settings`, { method: "PUT", body: term, email: editor.email });
  expect(put.status).toBe(200);
  await serverDb().contract.update({ where: { id: c.id }, data: { state: "signed" } });
  const at = new Date(Date.now() - signedAgoMs);
  await atTime(at, () => serverDb().$transaction((tx) => startLifecycle(tx, c.id, at)));
  return c.id;
}

const problems = (res: { json: { parameter_problems?: Record<string, string[]> } }) => Object.keys(res.json.parameter_problems ?? {});

describe("PUT /v1/contracts/{id}/lifecycle_settings", () => {
  test("answers the contract with its settings; a rule broken is a 400 naming the setting; 403 viewer, 404 unseen, 409 once published", async () => {
    const c = await draft();
    const path = `/v1/contracts/${c.id}/lifecycle_settings`;
    const ok = await api(path, { method: "PUT", body: { duration: "recurring", renewal_period: "P1Y" }, email: editor.email });
    expect(ok.status).toBe(200);
    expect(ok.json.lifecycle_settings).toEqual({ duration: "recurring", start_date: null, end_date: null, initial_duration: null, renewal_period: "P1Y", notice_period: null });
    expect(ok.json.lifecycle_state).toMatchObject({ state: null, signed_date: null });

    const bad = await api(path, { method: "PUT", body: { notice_period: "P1Y" }, email: editor.email });
    expect([bad.status, bad.json.error_code, problems(bad)]).toEqual([400, 4000001, ["notice_period"]]);
    const shape = await api(path, { method: "PUT", body: { end_date: "2027-02-30" }, email: editor.email });
    expect([shape.status, problems(shape)]).toEqual([400, ["end_date"]]);
    expect((await api(path, { method: "PUT", body: { duration: "none" }, email: viewer.email })).status).toBe(403);
    const outsider = await serverDb().$transaction((tx) => createUser(tx));
    expect((await api(path, { method: "PUT", body: { duration: "none" }, email: outsider.email })).status).toBe(404);

    await serverDb().contract.update({ where: { id: c.id }, data: { state: "pending" } });
    const frozen = await api(path, { method: "PUT", body: { duration: "none", renewal_period: null }, email: editor.email });
    expect([frozen.status, frozen.json.error_code]).toEqual([409, 4090001]);
  });
});

describe("POST …/cancel and …/terminate", () => {
  const term = { duration: "recurring", renewal_period: "P1Y", notice_period: "P1M" };

  test("notice before the deadline: canceled; after it: 409 naming the earliest end date", async () => {
    const early = await signed(term, DAY);
    const res = await api(`/v1/contracts/${early}/cancel`, { method: "POST", email: editor.email });
    expect(res.status).toBe(200);
    expect(res.json.lifecycle_state).toMatchObject({ state: "active", sub_state: "canceled", notice_deadline: null });
    expect(res.json.lifecycle_state.end_date).toBe(res.json.lifecycle_state.period_end_date);

    const late = await signed(term, 340 * DAY);
    const refused = await api(`/v1/contracts/${late}/cancel`, { method: "POST", email: editor.email });
    expect([refused.status, refused.json.error_code]).toEqual([409, 4090042]);
    expect(refused.json.detail).toMatch(/^Notice to end on \d{4}-\d\d-\d\d was due by \d{4}-\d\d-\d\d; the earliest the contract can now end is \d{4}-\d\d-\d\d\.$/);
    expect((await api(`/v1/contracts/${late}/cancel`, { method: "POST", email: viewer.email })).status).toBe(403);
    expect((await api(`/v1/contracts/${(await draft()).id}/cancel`, { method: "POST", email: editor.email })).status).toBe(409);
    expect((await api(`/v1/contracts/2147483647/cancel`, { method: "POST", email: editor.email })).status).toBe(404);
  });

  test("terminate: a past date is a 400 naming date; now ends it (terminated); again is a 409", async () => {
    const id = await signed(term, DAY);
    const past = await api(`/v1/contracts/${id}/terminate`, { method: "POST", body: { date: "2001-01-01" }, email: editor.email });
    expect([past.status, problems(past)]).toEqual([400, ["date"]]);
    const unknown = await api(`/v1/contracts/${id}/terminate`, { method: "POST", body: { when: "now" }, email: editor.email });
    expect(unknown.status).toBe(400);
    const now = await api(`/v1/contracts/${id}/terminate`, { method: "POST", body: {}, email: editor.email });
    expect(now.status).toBe(200);
    expect(now.json.lifecycle_state).toMatchObject({ state: "ended", sub_state: "terminated" });
    const again = await api(`/v1/contracts/${id}/terminate`, { method: "POST", body: {}, email: editor.email });
    expect([again.status, again.json.error_code]).toEqual([409, 4090042]);
    const events = await api(`/v1/contracts/${id}/events`, { email: editor.email });
    expect(events.json.data.map((e: { action: string }) => e.action).slice(0, 2)).toEqual(["contract.end", "contract.terminate"]);
  });
});

describe("internal reminders", () => {
  test("set, listed, refused for an outsider or a past date (400 naming each), removed (204, then 404)", async () => {
    const c = await draft();
    const path = `/v1/contracts/${c.id}/reminders`;
    const tomorrow = new Date(Date.now() + 2 * DAY).toISOString().slice(0, 10);
    const made = await api(path, { method: "POST", body: { date: tomorrow, note: "Renegotiate", recipient_id: viewer.id }, email: editor.email });
    expect(made.status).toBe(200);
    expect(made.json).toMatchObject({ date: tomorrow, note: "Renegotiate", recipient: { id: viewer.id }, created_by_id: editor.id, sent_time: null, due_time: `${tomorrow}T08:00:00.000+00:00` });
    const outsider = await serverDb().$transaction((tx) => createUser(tx));
    const bad = await api(path, { method: "POST", body: { date: "2001-01-01", note: "x", recipient_id: outsider.id }, email: editor.email });
    expect([bad.status, problems(bad).sort()]).toEqual([400, ["date", "recipient_id"]]);
    expect((await api(path, { method: "POST", body: { date: tomorrow, note: "x" }, email: viewer.email })).status).toBe(403);
    const list = await api(path, { email: viewer.email });
    expect([list.status, list.json.count, list.json.data[0].id]).toEqual([200, 1, made.json.id]);
    expect((await api(`${path}/${made.json.id}`, { method: "DELETE", email: editor.email })).status).toBe(204);
    expect((await api(`${path}/${made.json.id}`, { method: "DELETE", email: editor.email })).status).toBe(404);
  });
});

describe("the workspace's time zone", () => {
  test("answered on the workspace; only administrators change it, to a valid IANA name", async () => {
    expect((await api(`/v1/workspaces/${ws.id}`, { email: viewer.email })).json.time_zone).toBe("UTC");
    const path = `/v1/workspaces/${ws.id}/reminder_settings`;
    const editorTry = await api(path, { method: "PUT", body: { time_zone: "Europe/Oslo" }, email: editor.email });
    expect([editorTry.status, editorTry.json.error_code]).toEqual([403, 4030002]);
    const invalid = await api(path, { method: "PUT", body: { time_zone: "Europe/Nowhere" } });
    expect([invalid.status, problems(invalid)]).toEqual([400, ["time_zone"]]);
    const ok = await api(path, { method: "PUT", body: { time_zone: "Europe/Oslo", deadline_warning_days: 14 } });
    expect(ok.json).toMatchObject({ time_zone: "Europe/Oslo", deadline_warning_days: 14 });
    expect((await api(`/v1/workspaces/${ws.id}`)).json.time_zone).toBe("Europe/Oslo");
  });
});
