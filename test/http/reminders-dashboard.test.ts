// Issue 37 over HTTP: reminder settings (workspace defaults, contract overrides, ranges), the
// dashboard and the contracts list's filters it links to, and correcting a failed delivery.
import { beforeAll, describe, expect, test } from "vitest";
import { createContract, createWorkspaceWithTemplate } from "@/lib/db/seed/factories";
import { api, serverDb } from "@/test/helpers/http";

let ws: { id: number };
let template: { id: number };
let editor: { id: number; name: string; email: string };
let viewer: { id: number; email: string };

beforeAll(async () => {
  ({ workspace: ws, template, members: { editor, viewer } } = await serverDb().$transaction((tx) =>
    createWorkspaceWithTemplate(tx, {
      workspace: { name: `Remind ${Date.now()}` },
      template: { deliveryChannels: ["email"], signMethods: ["standard_esign"], twoStepMethods: ["none"] },
      members: ["editor", "viewer"],
    }),
  ));
});

const draft = (name = "Remind me") =>
  serverDb().$transaction((tx) =>
    createContract(tx, { workspaceId: ws.id, templateId: template.id, name, owner: editor, counterparties: [{ type: "individual", participant: { name: "Ann", email: `ann-${Date.now()}@example.org` } }] }),
  );

describe("reminder settings", () => {
  test("a workspace's defaults: first after 5 days, every 2, at most 5, a warning 3 days before; an editor changes them, audited", async () => {
    const path = `/v1/workspaces/${ws.id}/reminder_settings`;
    expect((await api(path, { email: viewer.email })).json).toEqual({ first_reminder_days: 5, reminder_interval_days: 2, max_reminders: 5, expiry_warning_days: 3, deadline_warning_days: 30, time_zone: "UTC" });
    expect((await api(path, { method: "PUT", body: { max_reminders: 3 }, email: viewer.email })).status).toBe(403);
    const res = await api(path, { method: "PUT", body: { max_reminders: 3, first_reminder_days: 4 }, email: editor.email });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ first_reminder_days: 4, reminder_interval_days: 2, max_reminders: 3, expiry_warning_days: 3, deadline_warning_days: 30, time_zone: "UTC" });
    expect(await serverDb().auditEvent.count({ where: { action: "workspace.reminder_settings_update", entityId: ws.id } })).toBe(1);
    // The same values, or none, write nothing: no second event, the same updated_time.
    const updated = (await serverDb().workspace.findUniqueOrThrow({ where: { id: ws.id } })).updatedAt;
    for (const body of [{ max_reminders: 3 }, {}, { time_zone: "UTC", first_reminder_days: 4 }]) {
      expect((await api(path, { method: "PUT", body, email: editor.email })).json).toEqual(res.json);
    }
    expect(await serverDb().auditEvent.count({ where: { action: "workspace.reminder_settings_update", entityId: ws.id } })).toBe(1);
    expect((await serverDb().workspace.findUniqueOrThrow({ where: { id: ws.id } })).updatedAt).toEqual(updated);
  });

  test("out of range, or not a whole number: 400 naming each field, and nothing changes", async () => {
    const path = `/v1/workspaces/${ws.id}/reminder_settings`;
    const before = (await api(path, { email: editor.email })).json;
    for (const [body, field] of [
      [{ first_reminder_days: 0 }, "first_reminder_days"],
      [{ reminder_interval_days: 31 }, "reminder_interval_days"],
      [{ max_reminders: -1 }, "max_reminders"],
      [{ expiry_warning_days: 1.5 }, "expiry_warning_days"],
      [{ max_reminders: "3" }, "max_reminders"],
    ] as const) {
      const res = await api(path, { method: "PUT", body, email: editor.email });
      expect([field, res.status, Object.keys(res.json.parameter_problems ?? {})]).toEqual([field, 400, [field]]);
    }
    expect((await api(path, { email: editor.email })).json).toEqual(before);
    const c = await draft();
    const bad = await api(`/v1/contracts/${c.id}/reminder_settings`, { method: "PUT", body: { max_reminders: 21, expiry_warning_days: 2 }, email: editor.email });
    expect(bad.status).toBe(400);
    expect(await serverDb().contract.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ reminderMax: null, expiryWarningDays: null });
  });

  test("a contract's own settings override the workspace's; null returns to the default; refused once the contract has ended", async () => {
    const c = await draft();
    const path = `/v1/contracts/${c.id}/reminder_settings`;
    const own = await api(path, { method: "PUT", body: { reminder_interval_days: 7, max_reminders: 0 }, email: editor.email });
    expect(own.status).toBe(200);
    expect(own.json).toMatchObject({ first_reminder_days: null, reminder_interval_days: 7, max_reminders: 0, workspace_defaults: { reminder_interval_days: 2 } });
    const back = await api(path, { method: "PUT", body: { max_reminders: null }, email: editor.email });
    expect(back.json).toMatchObject({ reminder_interval_days: 7, max_reminders: null });
    // The same values, or none, write nothing: the contract's trail keeps two events of them.
    const events = () => serverDb().auditEvent.count({ where: { action: "contract.reminder_settings_update", contractId: c.id } });
    expect(await events()).toBe(2);
    for (const body of [{}, { max_reminders: null, reminder_interval_days: 7 }]) expect((await api(path, { method: "PUT", body, email: editor.email })).json).toEqual(back.json);
    expect(await events()).toBe(2);
    await serverDb().contract.update({ where: { id: c.id }, data: { state: "signed" } });
    expect((await api(path, { method: "PUT", body: {}, email: editor.email })).status).toBe(200);
    expect(await events()).toBe(2);
    const ended = await api(path, { method: "PUT", body: { max_reminders: 2 }, email: editor.email });
    expect([ended.status, ended.json.error_code ?? ended.json.code]).toEqual([409, expect.anything()]);
  });
});

describe("the dashboard", () => {
  test("every count is the count of the contracts list with the tile's query", async () => {
    const c = await draft("Failed delivery");
    await serverDb().contract.update({ where: { id: c.id }, data: { state: "pending", publishedAt: new Date(), signingPeriodExpiresAt: new Date(Date.now() + 3 * 86_400_000) } });
    await serverDb().participant.updateMany({ where: { party: { contractId: c.id, myParty: false } }, data: { deliveryStatus: "failure", deliveryFailedAt: new Date(), deliveryFailure: "550 5.1.1 unknown" } });
    const res = await api("/v1/dashboard", { email: editor.email });
    expect(res.status).toBe(200);
    expect(res.json.tiles.map((t: { key: string }) => t.key)).toEqual(["awaiting_me", "delivery_failed", "expiring", "declined", "untouched_drafts", "notice_deadlines", "ending", "renewed"]);
    for (const tile of res.json.tiles as { key: string; count: number; query: Record<string, string> }[]) {
      const list = await api(`/v1/contracts?${new URLSearchParams(tile.query)}`, { email: editor.email });
      expect([tile.key, list.status, list.json.count]).toEqual([tile.key, 200, tile.count]);
    }
    expect(res.json.tiles.find((t: { key: string }) => t.key === "delivery_failed").count).toBeGreaterThanOrEqual(1);
    expect(res.json.delivery_failures).toContainEqual(expect.objectContaining({ contract_id: c.id, reason: "550 5.1.1 unknown" }));
  });

  test("the list's filters refuse bad values with a 400 naming the parameter", async () => {
    for (const query of ["updated_before=yesterday", "expires_before=2026-02-30T00:00:00Z", "delivery_failed=false", "awaiting_me=1", "state_updated_after="]) {
      const res = await api(`/v1/contracts?${query}`, { email: editor.email });
      expect([query, res.status, Object.keys(res.json.parameter_problems ?? {})]).toEqual([query, 400, [query.split("=")[0]]]);
    }
  });
});

describe("a failed delivery", () => {
  test("correcting the address on a pending contract clears the failure and sends the invitation there", async () => {
    const c = await draft("Bounced");
    const publish = await api(`/v1/contracts/${c.id}/publish`, { method: "POST", body: {}, email: editor.email });
    expect(publish.status).toBe(200);
    const ann = await serverDb().participant.findFirstOrThrow({ where: { party: { contractId: c.id, myParty: false } } });
    await serverDb().participant.update({ where: { id: ann.id }, data: { deliveryStatus: "failure", deliveryFailedAt: new Date(), deliveryFailure: "550 no such user" } });
    const path = `/v1/contracts/${c.id}/parties/${ann.partyId}/participants/${ann.id}`;
    expect((await api(path, { email: editor.email })).json._private_ownerside).toMatchObject({ delivery_failure: "550 no such user", delivery_failed_time: expect.any(String) });
    const fixed = await api(path, { method: "PUT", body: { email: "ann.right@example.org" }, email: editor.email });
    expect(fixed.status).toBe(200);
    const after = (await api(path, { email: editor.email })).json;
    expect(after).toMatchObject({ email: "ann.right@example.org", delivery_status: "pending", _private_ownerside: { delivery_failed_time: null, delivery_failure: "" } });
    expect(await serverDb().emailMessage.count({ where: { participantId: ann.id, kind: "invitation", toAddress: "ann.right@example.org" } })).toBe(1);
  });
});
