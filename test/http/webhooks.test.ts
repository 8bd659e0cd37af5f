// Webhooks over HTTP (docs/events.md "Webhooks"): subscriptions through /v1/webhooks (admins only), and
// the events of changes made through the API and the signing page reaching a real receiver on
// 127.0.0.1 that verifies every signature with the Standard Webhooks library. The shared test server
// runs with WEBHOOK_ALLOW_PRIVATE_URLS=1 and a fast poll and back-off (test/helpers/server.ts); the
// refusal of private addresses gets a server of its own without it.
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { createTemplate, createUser, createWorkspaceWithTemplate } from "@/lib/db/seed/factories";
import { twoStepCode } from "@/lib/domain/signing";
import { WEBHOOK_EVENT_TYPE_NAMES } from "@/lib/domain/webhooks";
import { createSmtpTransport } from "@/lib/services/mail/create-smtp-transport";
import { deliverDueEmails } from "@/lib/services/mail/deliver-email";
import { api, baseUrl, serverDb } from "@/test/helpers/http";
import { startTestSmtpServer } from "@/test/helpers/smtp";
import { startServer, TEST_API_TOKEN } from "@/test/helpers/server";
import { startWebhookReceiver, type TReceived, type TReceiver } from "@/test/helpers/webhook-receiver";

let receiver: TReceiver;
let ws: { id: number };
let template: { id: number };
let editor: { email: string };
let admin: { email: string };

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  const db = serverDb();
  await db.$transaction(async (tx) => {
    ({ workspace: ws, template, members: { editor } } = await createWorkspaceWithTemplate(tx, {
      workspace: { name: `Hooks ${Date.now()}` },
      template: { deliveryChannels: ["email"], signMethods: ["standard_esign"], twoStepMethods: ["none"] },
      members: ["editor"],
    }));
    admin = await createUser(tx, { isAdmin: true });
  });
});
afterAll(() => receiver.stop());

async function subscribe(path: string, body: Record<string, unknown> = {}) {
  const res = await api("/v1/webhooks", { body: { callback_url: receiver.url(path), workspace_ids: [ws.id], ...body }, email: admin.email });
  expect(res.status).toBe(200);
  receiver.secrets.set(path, res.json.secret);
  return res.json as { id: number; secret: string; active: boolean };
}

const seen = (path: string) => receiver.received.filter((r) => r.path === path);
const typesAt = (path: string) => [...new Set(seen(path).filter((r) => r.status < 300).map((r) => r.body.type))];

describe("subscriptions", () => {
  test("only administrators: everyone else gets 403 on every webhook route", async () => {
    const calls: [string, string, unknown?][] = [
      ["POST", "/v1/webhooks", { callback_url: receiver.url("/x") }],
      ["GET", "/v1/webhooks"],
      ["GET", "/v1/webhooks/1"],
      ["PUT", "/v1/webhooks/1", { active: false }],
      ["DELETE", "/v1/webhooks/1"],
      ["GET", "/v1/webhooks/1/deliveries"],
      ["POST", "/v1/webhooks/1/deliveries/1/retry"],
    ];
    for (const [method, path, body] of calls) {
      const res = await api(path, { method, email: editor.email, ...(body === undefined ? {} : { body }) });
      expect([method, path, res.status, res.json?.error_code]).toEqual([method, path, 403, 4030002]);
    }
    expect((await api("/v1/webhooks", { token: null })).status).toBe(401);
  });

  test("create answers the secret once; reads never show it; bad input is a 400 that writes nothing", async () => {
    const created = await subscribe("/crud", { description: "CRM", events: ["contract.create", "contract.sign"] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created).toMatchObject({ active: true, description: "CRM", events: ["contract.create", "contract.sign"], workspace_ids: [ws.id], paused_reason: "" });
    const one = await api(`/v1/webhooks/${created.id}`);
    expect(one.status).toBe(200);
    expect(one.json.secret).toBeUndefined();
    expect(one.text).not.toContain(created.secret);
    expect(one.json._links.self.href).toBe(`${baseUrl()}/v1/webhooks/${created.id}`);
    const list = await api("/v1/webhooks?limit=100");
    expect(list.json.data.some((w: { id: number }) => w.id === created.id)).toBe(true);
    expect(list.text).not.toContain("whsec_");

    const before = await serverDb().webhookSubscription.count();
    for (const [body, problem] of [
      [{ callback_url: "ftp://example.com/" }, "callback_url"],
      [{ callback_url: "https://user:pw@example.com/" }, "callback_url"],
      [{ callback_url: receiver.url("/y"), events: ["contract.explode"] }, "events.0"],
      [{ callback_url: receiver.url("/y"), events: ["webhook.create"] }, "events.0"],
      [{ callback_url: receiver.url("/y"), workspace_ids: [2_000_000_000] }, "workspace_ids"],
      [{ callback_url: receiver.url("/y"), secret: "whsec_mine" }, "secret"],
    ] as const) {
      const res = await api("/v1/webhooks", { body, email: admin.email });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json.parameter_problems ?? { $: 1 })[0]).toBe(problem);
    }
    expect(await serverDb().webhookSubscription.count()).toBe(before);
    expect((await api("/v1/webhooks/2000000000")).status).toBe(404);
    expect((await api(`/v1/webhooks/${created.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(`/v1/webhooks/${created.id}`)).status).toBe(404);
    // Changes to subscriptions are audited, and are no events themselves.
    const actions = await serverDb().auditEvent.findMany({ where: { entityType: "webhook", entityId: created.id }, orderBy: { id: "asc" } });
    expect(actions.map((a) => a.action)).toEqual(["webhook.create", "webhook.delete"]);
  });
});

describe("events", () => {
  test("every event type the API and the signing page cause arrives, signed; a 500 is retried with the same webhook-id; deliveries are listed and can be sent again", async () => {
    const hook = await subscribe("/events");
    // The receiver fails the first contract.create on purpose.
    let failedOnce = false;
    receiver.respond = (r) => {
      if (r.path === "/events" && r.body.type === "contract.create" && !failedOnce) {
        failedOnce = true;
        return 500;
      }
      return 204;
    };

    const created = await api("/v1/contracts/create", {
      email: editor.email,
      body: { workspace_id: ws.id, template_id: template.id, name: "Hooked", parties: [{ type: "company", name: "Buyer AB", participants: [{ name: "Ann Buyer", email: "ann@example.org", signatory: true }] }] },
    });
    expect(created.status).toBe(200);
    const contractId = created.json.id as number;
    const party = created.json.parties.find((p: { my_party: boolean }) => !p.my_party);
    const ann = party.participants[0];
    const annPath = `/v1/contracts/${contractId}/parties/${party.id}/participants/${ann.id}`;
    expect((await api(annPath, { method: "PUT", body: { title: "CFO" }, email: editor.email })).status).toBe(200);
    expect((await api(`/v1/contracts/${contractId}/publish`, { body: {}, email: editor.email })).status).toBe(200);
    expect((await api(`${annPath}/send_invitation`, { method: "POST", email: editor.email })).status).toBe(200);
    const link = await api(`${annPath}/signing_link`, { email: editor.email });
    const token = (link.json.url as string).split("/sign/")[1]!;
    const signed = await api(`/api/sign/${token}/sign`, { token: null, body: { full_name: "Ann Buyer" }, headers: { origin: baseUrl() } });
    expect(signed.status).toBe(200);
    const doomed = await api("/v1/contracts/create", { email: editor.email, body: { workspace_id: ws.id, template_id: template.id, name: "Doomed" } });
    expect((await api(`/v1/contracts/${doomed.json.id}`, { method: "DELETE", email: editor.email })).status).toBe(204);

    // contract.seal too: the sealing job's event comes after the signature, and this test's subscription must still exist then.
    const expected = ["contract.create", "participant.update", "contract.publish", "participant.invitation_send", "participant.sign", "contract.sign", "contract.seal", "contract.delete"];
    await receiver.waitFor(() => expected.every((t) => typesAt("/events").includes(t)) && seen("/events").filter((r) => r.body.type === "contract.create" && r.status < 300).length === 2);
    const got = seen("/events");
    expect(got.every((r) => r.verified)).toBe(true);
    expect(got.every((r) => r.id === r.body.id && /^evt_\d+$/.test(r.id))).toBe(true);
    expect(Math.abs(Number(got[0]!.timestamp) - Date.now() / 1000)).toBeLessThan(60);

    // The 500, then the same event again: same webhook-id, same body.
    const first = got.find((r) => r.status === 500)!;
    const again = got.filter((r) => r.id === first.id);
    expect(again.map((r) => r.status)).toEqual([500, 204]);
    expect(again[1]!.body).toEqual(first.body);

    // data: the resource as GET answers it.
    const byType = (t: string) => got.filter((r) => r.body.type === t && r.status < 300).at(-1)!;
    expect(byType("participant.update").body.data).toMatchObject({ id: ann.id, title: "CFO" });
    expect(byType("participant.sign").body.data).toMatchObject({ id: ann.id, sign_state: "signed" });
    expect(byType("contract.sign").body.data).toMatchObject({ id: contractId, state: "signed", _links: { self: { href: `${baseUrl()}/v1/contracts/${contractId}` } } });
    expect(byType("contract.delete").body.data).toMatchObject({ id: doomed.json.id, deleted: true, before: { name: "Doomed", state: "draft", workspace_id: ws.id } });

    // The deliveries, newest first, each with its status code, duration and attempts.
    const deliveries = await api(`/v1/webhooks/${hook.id}/deliveries`, { email: admin.email });
    expect(deliveries.status).toBe(200);
    const retried = deliveries.json.data.find((d: { event_id: string }) => d.event_id === first.id);
    expect(retried).toMatchObject({ event_type: "contract.create", status: "succeeded", attempts: 2, last_status_code: 204, last_error: "" });
    expect(typeof retried.last_duration_ms).toBe("number");
    // Send one again: the same event arrives once more.
    const before = seen("/events").filter((r) => r.id === first.id).length;
    const retry = await api(`/v1/webhooks/${hook.id}/deliveries/${retried.id}/retry`, { method: "POST", email: admin.email });
    expect(retry.status).toBe(200);
    expect(retry.json).toMatchObject({ id: retried.id, status: "queued" });
    await receiver.waitFor(() => seen("/events").filter((r) => r.id === first.id).length === before + 1);
    expect((await api(`/v1/webhooks/${hook.id}/deliveries/2000000000/retry`, { method: "POST" })).status).toBe(404);
    await api(`/v1/webhooks/${hook.id}`, { method: "DELETE" });
  });

  test("the other event types arrive too (parties and participants added and removed, a data field set, a decline, an overdue contract): every documented type is delivered", async () => {
    await subscribe("/more");
    const withField = await serverDb().$transaction((tx) =>
      createTemplate(tx, { workspaceIds: [ws.id], deliveryChannels: ["email"], signMethods: ["standard_esign"], twoStepMethods: ["none"], dataFields: [{ name: "Price", customId: "price" }] }),
    );
    const create = (name: string) =>
      api("/v1/contracts/create", {
        email: editor.email,
        body: { workspace_id: ws.id, template_id: withField.id, name, parties: [{ type: "company", name: "Seller AB", participants: [{ name: "Sam Seller", email: "sam@example.org", signatory: true }] }] },
      });
    const c = await create("More events");
    expect(c.status).toBe(200);
    const id = c.json.id as number;
    const added = await api(`/v1/contracts/${id}/parties`, { email: editor.email, body: { type: "company", name: "Extra AB", participants: [{ name: "Ed Extra", email: "ed@example.org" }] } });
    expect(added.status).toBe(200);
    const eve = await api(`/v1/contracts/${id}/parties/${added.json.id}/participants`, { email: editor.email, body: { name: "Eve Extra", email: "eve@example.org" } });
    expect(eve.status).toBe(200);
    expect((await api(`/v1/contracts/${id}/parties/${added.json.id}/participants/${eve.json.id}`, { method: "DELETE", email: editor.email })).status).toBe(204);
    expect((await api(`/v1/contracts/${id}/parties/${added.json.id}`, { method: "DELETE", email: editor.email })).status).toBe(204);
    expect((await api(`/v1/contracts/${id}/data_fields/c::price`, { method: "PUT", email: editor.email, body: { value: "100 EUR" } })).status).toBe(200);
    expect((await api(`/v1/contracts/${id}/publish`, { body: {}, email: editor.email })).status).toBe(200);
    const sam = c.json.parties.find((p: { my_party: boolean }) => !p.my_party);
    const link = await api(`/v1/contracts/${id}/parties/${sam.id}/participants/${sam.participants[0].id}/signing_link`, { email: editor.email });
    const token = (link.json.url as string).split("/sign/")[1]!;
    expect((await api(`/api/sign/${token}/decline`, { token: null, body: { reason: "No" }, headers: { origin: baseUrl() } })).status).toBe(200);
    const late = await create("Late");
    expect((await api(`/v1/contracts/${late.json.id}/publish`, { body: {}, email: editor.email })).status).toBe(200);
    // Before it turns overdue: its signer's tenth wrong code locks the link (nine written directly).
    const lou = late.json.parties.find((p: { my_party: boolean }) => !p.my_party);
    const louLink = await api(`/v1/contracts/${late.json.id}/parties/${lou.id}/participants/${lou.participants[0].id}/signing_link`, { email: editor.email });
    const louToken = (louLink.json.url as string).split("/sign/")[1]!;
    const nonce = "webhook-test-nonce";
    await serverDb().participant.update({
      where: { id: lou.participants[0].id },
      data: { twoStepMethod: "email", twoStepWrongTries: 9, twoStepCodeNonce: nonce, twoStepCodeExpiresAt: new Date(Date.now() + 60_000) },
    });
    const secret = (await serverDb().appSetting.findUniqueOrThrow({ where: { key: "signing_secret" } })).value;
    const wrong = twoStepCode(secret, lou.participants[0].id, nonce) === "000000" ? "111111" : "000000";
    const locked = await api(`/api/sign/${louToken}/sign`, { token: null, body: { full_name: "Sam Seller", code: wrong }, headers: { origin: baseUrl() } });
    expect(locked.json.error_code).toBe(4030011);
    await serverDb().contract.update({ where: { id: late.json.id }, data: { signingPeriodExpiresAt: new Date(Date.now() - 1000) } });
    // A stage opening (publishing an ordered contract), a delegation and a withdrawal.
    const staged = await api("/v1/contracts/create", {
      email: editor.email,
      body: { workspace_id: ws.id, template_id: withField.id, name: "Staged", signing_order: "ordered", parties: [{ type: "company", name: "Stage AB", participants: [{ name: "Sue Stage", email: "sue@example.org", signatory: true, sign_order: 1 }] }] },
    });
    expect((await api(`/v1/contracts/${staged.json.id}/publish`, { body: {}, email: editor.email })).status).toBe(200);
    const sue = staged.json.parties.find((p: { my_party: boolean }) => !p.my_party);
    const sueLink = await api(`/v1/contracts/${staged.json.id}/parties/${sue.id}/participants/${sue.participants[0].id}/signing_link`, { email: editor.email });
    const sueToken = (sueLink.json.url as string).split("/sign/")[1]!;
    expect((await api(`/api/sign/${sueToken}/delegate`, { token: null, body: { name: "Dee Delegate", email: "dee@example.org" }, headers: { origin: baseUrl() } })).status).toBe(200);
    expect((await api(`/v1/contracts/${staged.json.id}/withdraw`, { body: {}, email: editor.email })).status).toBe(200);
    // An invitation a mail server refuses: the app under test keeps its mail (no SMTP), so this test
    // queues the invitation and runs the deliverer against a refusing server of its own.
    const bounced = await create("Bounced");
    expect((await api(`/v1/contracts/${bounced.json.id}/publish`, { body: {}, email: editor.email })).status).toBe(200);
    const bo = bounced.json.parties.find((p: { my_party: boolean }) => !p.my_party).participants[0];
    await serverDb().emailMessage.updateMany({ where: { participantId: bo.id, kind: "invitation" }, data: { status: "queued" } });
    const smtp = await startTestSmtpServer({ refuseRecipient: () => ({ code: 550, message: "5.1.1 No such user" }) });
    const transport = createSmtpTransport(smtp.url);
    expect(await deliverDueEmails({ prisma: serverDb(), transport, from: "contracts@example.test" })).toMatchObject({ failed: 1 });
    transport.close();
    await smtp.close();

    // A signed contract's life (docs/lifecycle.md): notice taken, terminated now (which ends it), and an
    // internal reminder set and removed. The job's own changes at a date (contract.activate,
    // contract.renew) are written by test/services/lifecycle.test.ts under an injected clock and fan
    // out as any audit event does.
    const tomorrow = new Date(Date.now() + 36 * 3_600_000).toISOString().slice(0, 10);
    const lived = await api("/v1/contracts/create", {
      email: editor.email,
      body: {
        workspace_id: ws.id, template_id: withField.id, name: "Lived",
        parties: [{ type: "company", name: "Life AB", participants: [{ name: "Liv Life", email: "liv@example.org", signatory: true }] }],
        data_fields: [{ custom_id: "price", value: "5 EUR" }],
        lifecycle_settings: { duration: "recurring", start_date: tomorrow, renewal_period: "P1M" },
      },
    });
    expect(lived.status, JSON.stringify(lived.json)).toBe(200);
    expect((await api(`/v1/contracts/${lived.json.id}/publish`, { body: {}, email: editor.email })).status).toBe(200);
    const liv = lived.json.parties.find((p: { my_party: boolean }) => !p.my_party);
    const livLink = await api(`/v1/contracts/${lived.json.id}/parties/${liv.id}/participants/${liv.participants[0].id}/signing_link`, { email: editor.email });
    const livToken = (livLink.json.url as string).split("/sign/")[1]!;
    expect((await api(`/api/sign/${livToken}/sign`, { token: null, body: { full_name: "Liv Life" }, headers: { origin: baseUrl() } })).status).toBe(200);
    const noticed = await api(`/v1/contracts/${lived.json.id}/cancel`, { body: {}, email: editor.email });
    expect(noticed.status, JSON.stringify(noticed.json)).toBe(200);
    expect((await api(`/v1/contracts/${lived.json.id}/terminate`, { body: {}, email: editor.email })).status).toBe(200);
    const reminder = await api(`/v1/contracts/${lived.json.id}/reminders`, { email: editor.email, body: { date: tomorrow, note: "Check the invoice" } });
    expect(reminder.status, JSON.stringify(reminder.json)).toBe(200);
    expect((await api(`/v1/contracts/${lived.json.id}/reminders/${reminder.json.id}`, { method: "DELETE", email: editor.email })).status).toBe(204);

    const expected = ["party.create", "participant.create", "participant.delete", "party.delete", "data_field.update", "participant.decline", "contract.decline", "participant.two_step_lock", "contract.overdue", "contract.stage_start", "participant.delegate", "contract.withdraw", "participant.delivery_failure", "contract.cancel", "contract.terminate", "contract.end", "contract.internal_reminder_create", "contract.internal_reminder_delete"];
    await receiver.waitFor(() => expected.every((t) => typesAt("/more").includes(t)));
    expect(seen("/more").every((r) => r.verified)).toBe(true);
    const overdue = seen("/more").find((r) => r.body.type === "contract.overdue")!;
    expect(overdue.body.data).toMatchObject({ id: late.json.id, state: "overdue" });
    const refused = seen("/more").find((r) => r.body.type === "participant.delivery_failure")!;
    expect(refused.body.data).toMatchObject({ id: bo.id, delivery_status: "failure", _private_ownerside: { delivery_failure: expect.stringContaining("550 5.1.1 No such user") } });
    // With the first test's: every documented type has been delivered.
    const atADate = ["contract.activate", "contract.renew"];
    expect(WEBHOOK_EVENT_TYPE_NAMES.filter((t) => !atADate.includes(t) && !typesAt("/more").includes(t) && !typesAt("/events").includes(t))).toEqual([]);
  });

  test("a paused subscription keeps its events and delivers them once resumed", async () => {
    const hook = await subscribe("/pause", { events: ["contract.create"] });
    const paused = await api(`/v1/webhooks/${hook.id}`, { method: "PUT", body: { active: false }, email: admin.email });
    expect(paused.json).toMatchObject({ active: false, paused_reason: "Paused by an administrator." });
    expect(paused.json.paused_time).not.toBeNull();
    const made = await api("/v1/contracts/create", { email: editor.email, body: { workspace_id: ws.id, template_id: template.id, name: "While paused" } });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(seen("/pause")).toEqual([]);
    const resumed = await api(`/v1/webhooks/${hook.id}`, { method: "PUT", body: { active: true }, email: admin.email });
    expect(resumed.json).toMatchObject({ active: true, paused_reason: "", paused_time: null });
    const [arrived] = await receiver.waitFor(() => seen("/pause").length === 1).then(() => seen("/pause"));
    expect((arrived as TReceived).body.data).toMatchObject({ id: made.json.id, name: "While paused" });
    expect((await api(`/v1/webhooks/${hook.id}`, { method: "PUT", body: { active: "yes" } })).status).toBe(400);
    await api(`/v1/webhooks/${hook.id}`, { method: "DELETE" });
  });
});

describe("callback URLs on a server that does not allow private addresses (the default)", () => {
  test("loopback, private, link-local, CGNAT and IPv4-mapped addresses are refused; names are resolved first", async () => {
    const server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: "" } });
    try {
      for (const url of [
        receiver.url("/ssrf"),
        "http://localhost:8080/",
        "http://10.1.2.3/",
        "http://192.168.0.10/",
        "http://172.20.0.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://100.64.0.1/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[fd00::1]/",
        "http://0/",
        "http://2130706433/",
      ]) {
        const res = await fetch(`${server.baseUrl}/v1/webhooks`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-service-api-token": TEST_API_TOKEN },
          body: JSON.stringify({ callback_url: url }),
        });
        const json = await res.json();
        expect([url, res.status, json.error_code]).toEqual([url, 400, 4000030]);
      }
    } finally {
      await server.stop();
    }
    // A server of its own starts (and migrates) first: slow on a busy machine.
  }, 240_000);
});
