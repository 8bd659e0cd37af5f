// Issue 13: publishing (readiness, refusal, invitations), signing links, the signing page's API
// (view, e-mail code, sign, decline, the concurrent last signature) and the overdue check.
import { beforeAll, describe, expect, test } from "vitest";
import { newNonce, signingToken, twoStepCode } from "@/lib/domain/signing";
import { createContract, createUser, createWorkspaceWithTemplate, type CounterpartyInput } from "@/lib/db/seed/factories";
import { api, baseUrl, serverDb } from "@/test/helpers/http";

let ws: { id: number };
let template: { id: number };
let editor: { id: number; name: string; email: string };
let viewer: { id: number; email: string };
let outsider: { id: number; email: string };

beforeAll(async () => {
  const db = serverDb();
  await db.$transaction(async (tx) => {
    ({ workspace: ws, template, members: { editor, viewer } } = await createWorkspaceWithTemplate(tx, {
      workspace: { name: `Sign ${Date.now()}` },
      template: {
        deliveryChannels: ["email", "sms", "same_device"],
        signMethods: ["standard_esign", "swedish_bankid"],
        twoStepMethods: ["none", "email"],
        dataFields: [{ name: "Price", customId: "price", defaultValue: "100 EUR" }],
      },
      members: ["editor", "viewer"],
    }));
    await tx.template.update({ where: { id: template.id }, data: { signingPeriodDays: 7 } });
    outsider = await createUser(tx, {});
  });
});

function draft(counterparties: CounterpartyInput[], name = "Sign me") {
  return serverDb().$transaction((tx) => createContract(tx, { workspaceId: ws.id, templateId: template.id, name, owner: editor, counterparties }));
}

const publish = (id: number, body: unknown = {}, email = editor.email) => api(`/v1/contracts/${id}/publish`, { method: "POST", body, email });

async function participantsOf(contractId: number) {
  return serverDb().participant.findMany({ where: { party: { contractId } }, orderBy: { id: "asc" }, include: { party: true } });
}

async function linkOf(contractId: number, participantId: number) {
  const p = await serverDb().participant.findUniqueOrThrow({ where: { id: participantId } });
  const res = await api(`/v1/contracts/${contractId}/parties/${p.partyId}/participants/${p.id}/signing_link`, { email: editor.email });
  expect(res.status).toBe(200);
  return { url: res.json.url as string, token: (res.json.url as string).split("/sign/")[1]! };
}

/** As the signing page calls its API: same origin, JSON. */
function signApi(token: string, action: "" | "/code" | "/sign" | "/decline", body?: unknown, headers: Record<string, string> = {}) {
  return api(`/api/sign/${token}${action}`, {
    token: null,
    method: action === "" ? "GET" : "POST",
    ...(body === undefined ? {} : { body }),
    headers: { origin: baseUrl(), ...headers },
  });
}

const company = (participants: CounterpartyInput extends infer C ? (C extends { type: "company"; participants: infer P } ? P : never) : never, name = "Acme") =>
  ({ type: "company", name, participants }) as const;

describe("publishing", () => {
  test("a contract that is not ready: the checklist names every reason, publishing is a 409 with the same reasons, nothing changes", async () => {
    const c = await draft([
      company([{ name: "Ann Reader", signatory: false }], "NoSigner AB"),
      company([{ name: "Sam Sms", signatory: true, deliveryChannel: "sms", phoneNumber: "", email: "" }], "Phoneless AB"),
    ]);
    const readiness = await api(`/v1/contracts/${c.id}/publish_readiness`, { email: viewer.email });
    expect(readiness.status).toBe(200);
    expect(readiness.json.ready).toBe(false);
    expect(readiness.json.problems.map((p: { path: string }) => p.path)).toEqual(["parties.1.participants", "parties.2.participants.0.phone_number"]);
    expect(readiness.json.problems[0].message).toBe("NoSigner AB has no signatory.");
    expect(readiness.json.problems[1].message).toMatch(/^Sam Sms \(Phoneless AB\): /);

    const res = await publish(c.id);
    expect(res.status).toBe(409);
    expect(res.json.error_code).toBe(4090010);
    expect(Object.keys(res.json.parameter_problems)).toEqual(["parties.1.participants", "parties.2.participants.0.phone_number"]);
    const after = await serverDb().contract.findUniqueOrThrow({ where: { id: c.id } });
    expect([after.state, after.publishedAt, after.signingPeriodExpiresAt]).toEqual(["draft", null, null]);
    expect(await serverDb().emailMessage.count({ where: { contractId: c.id } })).toBe(0);
    expect(await serverDb().auditEvent.count({ where: { contractId: c.id, action: "contract.publish" } })).toBe(0);
    expect((await participantsOf(c.id)).every((p) => p.signingTokenHash === null)).toBe(true);
  });

  test("a contract without counterparties is not ready", async () => {
    const c = await draft([]);
    const res = await publish(c.id);
    expect([res.status, Object.keys(res.json.parameter_problems)]).toEqual([409, ["parties"]]);
  });

  test("publishing: pending with its times, a link per participant (only its hash stored), invitations kept in the outbox, SMS said undeliverable, audited", async () => {
    const c = await draft([
      company([{ name: "Eve Email", email: "eve@example.org" }, { name: "Sid Sms", deliveryChannel: "sms", phoneNumber: "+46701234567", signatory: false }]),
    ]);
    const before = Date.now();
    const res = await publish(c.id, { subject: "Our NDA", message: "Looking forward to it." });
    expect(res.status).toBe(200);
    expect(res.json.state).toBe("pending");
    const published = Date.parse(res.json.published_time);
    expect(published).toBeGreaterThanOrEqual(before - 1000);
    expect(res.json.state_updated_time).toBe(res.json.published_time);
    expect(Date.parse(res.json.signing_period_expiry_time) - published).toBe(7 * 86_400_000);

    const people = await participantsOf(c.id);
    expect(people.every((p) => p.signingNonce && /^[0-9a-f]{64}$/.test(p.signingTokenHash ?? ""))).toBe(true);
    const byName = Object.fromEntries(people.map((p) => [p.name, p]));
    expect(byName["Eve Email"]!.deliveryStatus).toBe("pending");
    expect(byName["Sid Sms"]!.deliveryStatus).toBe("failure");

    const mail = await serverDb().emailMessage.findMany({ where: { contractId: c.id }, orderBy: { id: "asc" } });
    const eve = mail.find((m) => m.toAddress === "eve@example.org")!;
    expect(eve).toMatchObject({ kind: "invitation", status: "kept", subject: "Our NDA", linkOrigin: baseUrl() });
    expect(eve.body).toContain("Looking forward to it.");
    expect(eve.body).toContain("{{signing_link}}");
    const sms = mail.find((m) => m.toAddress === "+46701234567")!;
    expect(sms).toMatchObject({ status: "undeliverable" });
    expect(sms.lastError).toMatch(/no SMS provider/);
    // The organizer (owner side, e-mail channel) is invited too.
    expect(mail.some((m) => m.toAddress === editor.email)).toBe(true);
    // No stored text holds a link's token.
    const { token } = await linkOf(c.id, byName["Eve Email"]!.id);
    expect(mail.some((m) => m.body.includes(token))).toBe(false);

    const events = await serverDb().auditEvent.findMany({ where: { contractId: c.id, action: "contract.publish" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorUserId: editor.id, before: { state: "draft" }, after: { state: "pending", subject: "Our NDA" } });

    const again = await publish(c.id);
    expect([again.status, again.json.parameter_problems]).toEqual([409, { state: ["The contract is pending; only a draft can be published."] }]);
  });

  test("a viewer gets 403 and an outsider 404; a bad subject is a 400; the draft stays", async () => {
    const c = await draft([company([{ name: "Vic" }])]);
    expect((await publish(c.id, {}, viewer.email)).status).toBe(403);
    expect((await publish(c.id, {}, outsider.email)).status).toBe(404);
    const bad = await publish(c.id, { subject: "Hi\r\nBcc: x@evil.example" });
    expect([bad.status, Object.keys(bad.json.parameter_problems)]).toEqual([400, ["subject"]]);
    expect((await publish(c.id, { unknown: 1 })).status).toBe(400);
    expect((await serverDb().contract.findUniqueOrThrow({ where: { id: c.id } })).state).toBe("draft");
  });
});

describe("signing links for staff", () => {
  test("only writers get a link, only while pending; send again queues another invitation", async () => {
    const c = await draft([company([{ name: "Lia Link", email: "lia@example.org" }])]);
    const lia = (await participantsOf(c.id)).find((p) => p.name === "Lia Link")!;
    const path = `/v1/contracts/${c.id}/parties/${lia.partyId}/participants/${lia.id}`;
    expect((await api(`${path}/signing_link`, { email: editor.email })).json.error_code).toBe(4090011);
    await publish(c.id);
    expect((await api(`${path}/signing_link`, { email: viewer.email })).status).toBe(403);
    expect((await api(`${path}/signing_link`, { email: outsider.email })).status).toBe(404);
    const link = await api(`${path}/signing_link`, { email: editor.email });
    expect(link.status).toBe(200);
    expect(link.headers.get("cache-control")).toBe("no-store");
    expect(link.json.url).toMatch(new RegExp(`^${baseUrl()}/sign/[A-Za-z0-9_-]{43}$`));

    const again = await api(`${path}/send_invitation`, { method: "POST", email: editor.email });
    expect(again.status).toBe(200);
    expect(await serverDb().emailMessage.count({ where: { participantId: lia.id, kind: "invitation" } })).toBe(2);
    expect((await api(`${path}/send_invitation`, { method: "POST", email: viewer.email })).status).toBe(403);
  });
});

describe("the signing page's API", () => {
  test("a link shows the contract, counts the visit, and works for nothing else", async () => {
    const c = await draft([company([{ name: "Vera Visit", email: "vera@example.org" }])], "Visited contract");
    await publish(c.id);
    const vera = (await participantsOf(c.id)).find((p) => p.name === "Vera Visit")!;
    const { token } = await linkOf(c.id, vera.id);
    const view = await signApi(token, "");
    expect(view.status).toBe(200);
    expect(view.json.contract.name).toBe("Visited contract");
    expect(view.json.you).toMatchObject({ name: "Vera Visit", signatory: true, sign_method_supported: true, sign_state: "undecided" });
    expect(view.json.data_fields).toEqual([{ name: "Price", value: "100 EUR" }]);
    const seen = await serverDb().participant.findUniqueOrThrow({ where: { id: vera.id } });
    expect([seen.visits, seen.deliveryStatus, seen.firstVisitedAt !== null]).toEqual([1, "opened", true]);
    // A token one character off, a short one, and a token for /v1: nothing.
    const wrong = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    expect((await signApi(wrong, "")).status).toBe(404);
    expect((await signApi("abc", "")).status).toBe(404);
    expect((await api("/v1/contracts", { token })).status).toBe(401);
  });

  test("signing needs the exact name and the page's own origin; the last signature makes the contract signed, mails go, the link dies", async () => {
    const c = await draft([company([{ name: "Ada Lovelace", email: "ada@example.org" }, { name: "Bob Reader", email: "bob@example.org", signatory: false }])]);
    await publish(c.id);
    const people = await participantsOf(c.id);
    const adaLink = await linkOf(c.id, people.find((p) => p.name === "Ada Lovelace")!.id);
    const bobLink = await linkOf(c.id, people.find((p) => p.name === "Bob Reader")!.id);

    expect((await signApi(adaLink.token, "/sign", { full_name: "Ada" })).json.parameter_problems).toEqual({
      full_name: ["Type your name as the contract writes it: Ada Lovelace"],
    });
    expect((await signApi(adaLink.token, "/sign", { full_name: "Ada Lovelace" }, { origin: "https://evil.example" })).status).toBe(403);
    expect((await signApi(bobLink.token, "/sign", { full_name: "Bob Reader" })).json.error_code).toBe(4030010);

    const signed = await signApi(adaLink.token, "/sign", { full_name: "  ada   LOVELACE " });
    expect([signed.status, signed.json]).toEqual([200, { contract_state: "signed" }]);
    const contract = await api(`/v1/contracts/${c.id}`, { email: editor.email });
    expect(contract.json.state).toBe("signed");
    const adaNow = contract.json.parties[1].participants.find((p: { name: string }) => p.name === "Ada Lovelace");
    expect(adaNow.sign_state).toBe("signed");
    expect(adaNow.sign_state_updated_time).toBe(contract.json.state_updated_time);
    expect((await serverDb().participant.findUniqueOrThrow({ where: { id: adaNow.id } })).signedName).toBe("ada   LOVELACE");
    const confirmations = await serverDb().emailMessage.findMany({ where: { contractId: c.id, kind: "signed" } });
    expect(confirmations.map((m) => m.toAddress).sort()).toEqual(["ada@example.org", "bob@example.org", editor.email].sort());
    expect((await signApi(adaLink.token, "")).status).toBe(404);
    expect((await signApi(adaLink.token, "/sign", { full_name: "Ada Lovelace" })).status).toBe(404);
    const audit = await serverDb().auditEvent.findMany({ where: { contractId: c.id, action: { in: ["participant.sign", "contract.sign"] } }, orderBy: { id: "asc" } });
    expect(audit.map((e) => [e.action, e.via])).toEqual([["participant.sign", "signing_link"], ["contract.sign", "signing_link"]]);
  });

  test("declining: the contract is declined with the reason, everyone is told, other links die", async () => {
    const c = await draft([company([{ name: "Dee Cline", email: "dee@example.org" }]), company([{ name: "Oli Other", email: "oli@example.org" }], "Other AB")]);
    await publish(c.id);
    const people = await participantsOf(c.id);
    const dee = await linkOf(c.id, people.find((p) => p.name === "Dee Cline")!.id);
    const oli = await linkOf(c.id, people.find((p) => p.name === "Oli Other")!.id);
    const res = await signApi(dee.token, "/decline", { reason: "Price too high" });
    expect([res.status, res.json]).toEqual([200, { contract_state: "declined" }]);
    expect((await api(`/v1/contracts/${c.id}`, { email: editor.email })).json.state).toBe("declined");
    expect((await serverDb().participant.findFirstOrThrow({ where: { name: "Dee Cline", party: { contractId: c.id } } })).declineReason).toBe("Price too high");
    const told = await serverDb().emailMessage.findMany({ where: { contractId: c.id, kind: "declined" } });
    expect(told).toHaveLength(3);
    expect(told[0]!.body).toContain("Price too high");
    expect((await signApi(oli.token, "/sign", { full_name: "Oli Other" })).status).toBe(404);
  });

  test("the trail keeps the signer as they were: renamed after signing, the events still name them as they signed", async () => {
    const c = await draft([company([{ name: "Rita Before", email: "rita@example.org" }, { name: "Sam Later", email: "sam@example.org" }], "Rename AB")]);
    await publish(c.id);
    const [, rita] = await participantsOf(c.id);
    expect((await signApi((await linkOf(c.id, rita!.id)).token, "/sign", { full_name: "Rita Before" })).status).toBe(200);
    // However the name changes later (here in the database itself), the event keeps the one she signed as.
    await serverDb().participant.update({ where: { id: rita!.id }, data: { name: "Somebody Else", email: "else@example.org" } });
    const events = await api(`/v1/contracts/${c.id}/events`, { email: editor.email });
    const signed = events.json.data.find((e: { action: string }) => e.action === "participant.sign");
    expect(signed.actor).toEqual({ type: "signer", id: rita!.id, name: "Rita Before", email: "rita@example.org" });
  });

  test("the signing page of a dead or unknown link is a 404 page without contract data; a live link's page is 200", async () => {
    const c = await draft([company([{ name: "Pia Page", email: "pia@example.org" }], "Pagecheck AB")], "Page-status contract");
    await publish(c.id);
    const pia = await linkOf(c.id, (await participantsOf(c.id))[1]!.id);
    const page = async (token: string) => {
      const res = await fetch(`${baseUrl()}/sign/${token}`);
      return { status: res.status, body: await res.text() };
    };
    expect((await page(pia.token)).status).toBe(200);
    expect(await signApi(pia.token, "/decline", { reason: "No" })).toMatchObject({ status: 200 });
    for (const token of [pia.token, "A".repeat(43), "not-a-token"]) {
      const res = await page(token);
      expect(res.status).toBe(404);
      expect(res.body).toContain("This link does not work");
      for (const secret of ["Page-status contract", "Pagecheck AB", "Pia Page", "pia@example.org"]) expect(res.body).not.toContain(secret);
    }
  });

  test("e-mail two-step: no code no signature, codes are rate limited and die after 5 wrong tries, the right one signs", async () => {
    const c = await draft([company([{ name: "Tia Twostep", email: "tia@example.org", twoStepMethod: "email" }])]);
    await publish(c.id);
    const tia = (await participantsOf(c.id)).find((p) => p.name === "Tia Twostep")!;
    const { token } = await linkOf(c.id, tia.id);
    const noCode = await signApi(token, "/sign", { full_name: "Tia Twostep" });
    expect([noCode.status, noCode.json.error_code]).toEqual([400, 4000020]);

    const sent = await signApi(token, "/code", {});
    expect([sent.status, sent.json]).toEqual([202, { sent_to: "tia@example.org" }]);
    const mail = await serverDb().emailMessage.findFirstOrThrow({ where: { participantId: tia.id, kind: "two_step_code" } });
    expect(mail.body).toContain("{{code}}");
    const tooSoon = await signApi(token, "/code", {});
    expect([tooSoon.status, Number(tooSoon.headers.get("retry-after")) > 0]).toEqual([429, true]);

    const secret = (await serverDb().appSetting.findUniqueOrThrow({ where: { key: "signing_secret" } })).value;
    const row = await serverDb().participant.findUniqueOrThrow({ where: { id: tia.id } });
    const code = twoStepCode(secret, tia.id, row.twoStepCodeNonce!);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect((await signApi(token, "/sign", { full_name: "Tia Twostep", code: wrong })).json.error_code).toBe(4000020);
    // Used up: even the right code no longer works.
    expect((await signApi(token, "/sign", { full_name: "Tia Twostep", code })).json.parameter_problems).toEqual({ code: ["Ask for a new code: the last one has expired or was used up."] });

    // A fresh code (the pause moved back, as if 30 s had passed) signs.
    await serverDb().participant.update({ where: { id: tia.id }, data: { twoStepCodeExpiresAt: new Date(Date.now() + 60_000) } });
    expect((await signApi(token, "/code", {})).status).toBe(202);
    const fresh = await serverDb().participant.findUniqueOrThrow({ where: { id: tia.id } });
    const good = await signApi(token, "/sign", { full_name: "Tia Twostep", code: twoStepCode(secret, tia.id, fresh.twoStepCodeNonce!) });
    expect([good.status, good.json.contract_state]).toEqual([200, "signed"]);
  });

  test("a sign method this deployment cannot perform is said so; declining still works", async () => {
    const c = await draft([company([{ name: "Ben Bankid", email: "ben@example.org", signMethod: "swedish_bankid" }])]);
    await publish(c.id);
    const ben = (await participantsOf(c.id)).find((p) => p.name === "Ben Bankid")!;
    const { token } = await linkOf(c.id, ben.id);
    expect((await signApi(token, "")).json.you.sign_method_supported).toBe(false);
    expect((await signApi(token, "/sign", { full_name: "Ben Bankid" })).json.error_code).toBe(4090013);
    expect((await signApi(token, "/decline", {})).json).toEqual({ contract_state: "declined" });
  });

  test("two signatories signing at the same instant: both succeed and the contract becomes signed exactly once", async () => {
    for (let round = 0; round < 5; round++) {
      const c = await draft([company([{ name: "Con One", email: "one@example.org" }, { name: "Con Two", email: "two@example.org" }])]);
      await publish(c.id);
      const people = (await participantsOf(c.id)).filter((p) => p.name.startsWith("Con "));
      const links = await Promise.all(people.map((p) => linkOf(c.id, p.id)));
      const answers = await Promise.all(links.map((l, i) => signApi(l.token, "/sign", { full_name: people[i]!.name })));
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers.map((a) => a.json.contract_state).sort()).toEqual(["pending", "signed"]);
      expect((await serverDb().contract.findUniqueOrThrow({ where: { id: c.id } })).state).toBe("signed");
      expect(await serverDb().auditEvent.count({ where: { contractId: c.id, action: "contract.sign" } })).toBe(1);
      expect(await serverDb().emailMessage.count({ where: { contractId: c.id, kind: "signed" } })).toBe(3);
    }
  });
});

describe("the overdue check", () => {
  test("a pending contract past its signing period becomes overdue (audited, by the server's own job) and its links die", async () => {
    const c = await draft([company([{ name: "Otto Overdue", email: "otto@example.org" }])]);
    await publish(c.id);
    const otto = (await participantsOf(c.id)).find((p) => p.name === "Otto Overdue")!;
    const { token } = await linkOf(c.id, otto.id);
    const notYet = await draft([company([{ name: "Nia NotYet" }])]);
    await publish(notYet.id);
    await serverDb().contract.update({ where: { id: c.id }, data: { signingPeriodExpiresAt: new Date(Date.now() - 1000) } });
    const deadline = Date.now() + 10_000;
    let state = "pending";
    while (state === "pending" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      state = (await api(`/v1/contracts/${c.id}`, { email: editor.email })).json.state;
    }
    expect(state).toBe("overdue");
    expect((await api(`/v1/contracts/${notYet.id}`, { email: editor.email })).json.state).toBe("pending");
    const events = await serverDb().auditEvent.findMany({ where: { contractId: c.id, action: "contract.overdue" } });
    expect(events.map((e) => e.via)).toEqual(["system"]);
    expect((await signApi(token, "")).status).toBe(404);
  });
});

test("signing tokens are unguessable HMACs of the participant and a nonce", () => {
  const a = signingToken("s", 1, newNonce());
  expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(signingToken("s", 1, "n")).toBe(signingToken("s", 1, "n"));
  expect(signingToken("s", 2, "n")).not.toBe(signingToken("s", 1, "n"));
});
