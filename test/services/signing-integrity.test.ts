// Issue 38: what was signed stays signed, by whom it was signed, and the second factor cannot be
// outguessed (lib/services/signing, lib/services/audit). Runs on the embedded database and, with
// TEST_DB=postgres, on PostgreSQL, where the races below really race.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "@/lib/db/pool";
import { createContract } from "@/lib/db/seed/factories";
import type { TUserActor } from "@/lib/domain/actor";
import { twoStepCode } from "@/lib/domain/signing";
import { resendAfterMs, TWO_STEP_CODE } from "@/lib/domain/two-step";
import { serializeAuditEvent } from "@/lib/api/serializers/audit-event";
import { listContractEvents } from "@/lib/services/audit/list-contract-events";
import { publishContract } from "@/lib/services/contracts/publish-contract";
import { updateDataField } from "@/lib/services/data-fields/update-data-field";
import { getSigningLink } from "@/lib/services/signing/get-signing-link";
import { sendInvitationAgain } from "@/lib/services/signing/send-invitation-again";
import { decideByLink } from "@/lib/services/signing/decide-by-link";
import { isLiveSigningLink } from "@/lib/services/signing/is-live-signing-link";
import { openSigningLink } from "@/lib/services/signing/open-signing-link";
import { sendTwoStepCode } from "@/lib/services/signing/send-two-step-code";
import { loadSigningSecret } from "@/lib/services/signing/signing-secret";
import type { TestDatabase } from "@/test/helpers/db";
import { createStaff, createTestWorld, ownerOf } from "@/test/helpers/world";
import { rejection } from "@/test/services/read-fixtures";

const ORIGIN = "http://signing.test";
let db: TestDatabase;
let staff: TUserActor;
let ws: { id: number };
let template: { id: number };

beforeAll(async () => {
  ({ db, ws, template } = await createTestWorld({ template: { deliveryChannels: ["email", "sms", "same_device"], twoStepMethods: ["none", "email"], dataFields: [{ name: "Price", customId: "price", defaultValue: "100 EUR" }] } }));
  staff = await createStaff(db.prisma);
});
afterAll(() => db.cleanup());

/** A published contract whose counterparties each have one signatory; their links by name. */
async function published(people: { name: string; twoStep?: "none" | "email"; deliveryChannel?: "email" | "sms" | "same_device" }[]) {
  const contract = await createContract(db.prisma, {
    workspaceId: ws.id,
    templateId: template.id,
    owner: ownerOf(staff),
    counterparties: people.map((p) => ({ type: "individual" as const, participant: { name: p.name, twoStepMethod: p.twoStep ?? "none", deliveryChannel: p.deliveryChannel, phoneNumber: "+4712345678" } })),
  });
  await publishContract({ db: db.prisma, actor: staff, contractId: contract.id, linkOrigin: ORIGIN });
  const parties = await db.prisma.party.findMany({ where: { contractId: contract.id, myParty: false }, include: { participants: true }, orderBy: { id: "asc" } });
  const links: Record<string, { token: string; participantId: number; partyId: number }> = {};
  for (const party of parties) {
    const p = party.participants[0]!;
    const { url } = await getSigningLink({ db: db.prisma, actor: staff, contractId: contract.id, partyId: party.id, participantId: p.id, linkOrigin: ORIGIN });
    links[p.name] = { token: url.split("/sign/")[1]!, participantId: p.id, partyId: party.id };
  }
  return { id: contract.id, links };
}

const sign = (token: string, fullName: string, code?: string) => decideByLink({ db: db.prisma, token, decision: { kind: "sign", fullName, code } });
const stateOf = async (id: number) => (await db.prisma.contract.findUniqueOrThrow({ where: { id } })).state;

describe("the contract is signed only when every counterparty's signatories have signed", () => {
  it("a counterparty left without a signatory keeps the contract pending after the last signature", async () => {
    const c = await published([{ name: "Ann A" }, { name: "Ben B" }, { name: "Cid C" }]);
    await sign(c.links["Ann A"]!.token, "Ann A");
    // The state the issue reached through the API, made directly: Cid's party has nobody who signs.
    await db.prisma.participant.update({ where: { id: c.links["Cid C"]!.participantId }, data: { signatory: false } });
    expect(await sign(c.links["Ben B"]!.token, "Ben B")).toEqual({ contractState: "pending" });
    expect(await stateOf(c.id)).toBe("pending");
    expect(await db.prisma.auditEvent.count({ where: { contractId: c.id, action: "contract.sign" } })).toBe(0);
  });

  it("signs once every signatory of every counterparty has signed", async () => {
    const c = await published([{ name: "Dan D" }, { name: "Eve E" }]);
    expect(await sign(c.links["Dan D"]!.token, "Dan D")).toEqual({ contractState: "pending" });
    expect(await sign(c.links["Eve E"]!.token, "Eve E")).toEqual({ contractState: "signed" });
  });

  it("data fields are frozen once published (409 data_fields_frozen)", async () => {
    const c = await published([{ name: "Fay F" }]);
    expect(await rejection(updateDataField({ db: db.prisma, actor: staff, contractId: c.id, dataField: { customId: "price" }, value: "1 EUR" }))).toEqual({ key: "data_fields_frozen", status: 409 });
  });
});

describe("the trail keeps who acted as they were then", () => {
  it("a signer renamed after signing still appears under the name they signed with", async () => {
    const c = await published([{ name: "Gus Original" }]);
    await sign(c.links["Gus Original"]!.token, "Gus Original");
    const participantId = c.links["Gus Original"]!.participantId;
    await db.prisma.participant.update({ where: { id: participantId }, data: { name: "Somebody Else", email: "else@example.org" } });
    await db.prisma.user.update({ where: { id: staff.userId }, data: { name: "Renamed Owner" } });
    const { rows } = await listContractEvents({ db: db.prisma, actor: staff, contractId: c.id, pagination: { limit: 100, offset: 0 } });
    const events = rows.map(serializeAuditEvent);
    const signed = events.find((e) => e.action === "participant.sign")!;
    expect(signed.actor).toMatchObject({ type: "signer", id: participantId, name: "Gus Original" });
    expect(signed.actor.email).not.toBe("else@example.org");
    expect(events.find((e) => e.action === "contract.sign")!.actor).toMatchObject({ type: "signer", name: "Gus Original" });
    expect(events.find((e) => e.action === "contract.publish")!.actor).toMatchObject({ type: "user", name: staff.name, email: staff.email });
    await db.prisma.user.update({ where: { id: staff.userId }, data: { name: staff.name } });
  });
});

describe("the e-mailed code", () => {
  /** Asks for a code as if the back-off had passed; answers it. */
  async function freshCode(token: string, participantId: number) {
    await db.prisma.participant.update({ where: { id: participantId }, data: { twoStepCodeExpiresAt: new Date(Date.now() - TWO_STEP_CODE.lifetimeMs - TWO_STEP_CODE.maxResendAfterMs) } });
    await sendTwoStepCode({ db: db.prisma, token });
    const row = await db.prisma.participant.findUniqueOrThrow({ where: { id: participantId } });
    return twoStepCode(await loadSigningSecret(db.prisma), participantId, row.twoStepCodeNonce!);
  }
  const wrongFor = (code: string) => (code === "000000" ? "111111" : "000000");

  it("wrong tries count across codes; the tenth locks the link, the staff are told, a new invitation unlocks with a new link", async () => {
    const c = await published([{ name: "Hal Guess", twoStep: "email" }]);
    const { token, participantId, partyId } = c.links["Hal Guess"]!;
    // Four wrong per code (under the code's own limit of five), on three codes: the count goes on.
    let code = "";
    for (let round = 0; round < 3; round++) {
      code = await freshCode(token, participantId);
      const tries = round < 2 ? 4 : TWO_STEP_CODE.lockAfterWrongTries - 8;
      for (let i = 0; i < tries; i++) {
        const refused = await rejection(sign(token, "Hal Guess", wrongFor(code)));
        const last = round === 2 && i === tries - 1;
        expect(refused).toEqual(last ? { key: "two_step_locked", status: 403 } : { key: "two_step_code_invalid", status: 400 });
      }
    }
    // Locked: the right code does not sign, no code is sent, and the page says so.
    expect(await rejection(sign(token, "Hal Guess", code))).toEqual({ key: "two_step_locked", status: 403 });
    expect(await rejection(sendTwoStepCode({ db: db.prisma, token }))).toEqual({ key: "two_step_locked", status: 403 });
    expect((await openSigningLink({ db: db.prisma, token })).you.twoStepLocked).toBe(true);
    const row = await db.prisma.participant.findUniqueOrThrow({ where: { id: participantId } });
    expect([row.twoStepWrongTries, row.twoStepLockedAt !== null, row.signState]).toEqual([10, true, "undecided"]);
    expect(await db.prisma.auditEvent.count({ where: { contractId: c.id, action: "participant.two_step_lock", entityId: participantId } })).toBe(1);
    const told = await db.prisma.emailMessage.findMany({ where: { contractId: c.id, kind: "two_step_lock" } });
    expect(told.map((m) => m.toAddress)).toEqual([staff.email]);

    // Staff send the invitation again: a new link, the old one dead, the tries afresh.
    await sendInvitationAgain({ db: db.prisma, actor: staff, contractId: c.id, partyId, participantId, linkOrigin: ORIGIN });
    expect(await isLiveSigningLink({ db: db.prisma, token })).toBe(false);
    const { url } = await getSigningLink({ db: db.prisma, actor: staff, contractId: c.id, partyId, participantId, linkOrigin: ORIGIN });
    const next = url.split("/sign/")[1]!;
    expect(next).not.toBe(token);
    expect((await openSigningLink({ db: db.prisma, token: next })).you.twoStepLocked).toBe(false);
    expect(await sign(next, "Hal Guess", await freshCode(next, participantId))).toEqual({ contractState: "signed" });
  });

  it.each(["sms", "same_device"] as const)("a %s participant, whom no e-mail invites, is unlocked by staff the same way: a new link, the lock cleared, audited, no invitation e-mail", async (channel) => {
    const name = `Lou ${channel}`;
    const c = await published([{ name, twoStep: "email", deliveryChannel: channel }]);
    const { token, participantId, partyId } = c.links[name]!;
    // Locked as ten wrong codes leave it (the test above types them).
    await db.prisma.participant.update({
      where: { id: participantId },
      data: { twoStepWrongTries: TWO_STEP_CODE.lockAfterWrongTries, twoStepWrongTriesTotal: TWO_STEP_CODE.lockAfterWrongTries, twoStepLockedAt: new Date() },
    });
    expect((await openSigningLink({ db: db.prisma, token })).you.twoStepLocked).toBe(true);
    const mailBefore = await db.prisma.emailMessage.count({ where: { participantId, kind: "invitation" } });

    const answered = await sendInvitationAgain({ db: db.prisma, actor: staff, contractId: c.id, partyId, participantId, linkOrigin: ORIGIN });
    expect(answered.twoStepLockedAt).toBeNull();
    expect(answered.deliveryStatus).toBe(channel === "sms" ? "failure" : "not_sent");
    expect(await isLiveSigningLink({ db: db.prisma, token })).toBe(false);
    const { url } = await getSigningLink({ db: db.prisma, actor: staff, contractId: c.id, partyId, participantId, linkOrigin: ORIGIN });
    const next = url.split("/sign/")[1]!;
    expect((await openSigningLink({ db: db.prisma, token: next })).you.twoStepLocked).toBe(false);
    // Nothing is e-mailed to them: an SMS participant's invitation is recorded undeliverable, as at publishing.
    const invitations = await db.prisma.emailMessage.findMany({ where: { participantId, kind: "invitation" }, orderBy: { id: "asc" } });
    expect(invitations.slice(mailBefore).map((m) => m.status)).toEqual(channel === "sms" ? ["undeliverable"] : []);
    const { rows } = await listContractEvents({ db: db.prisma, actor: staff, contractId: c.id, pagination: { limit: 100, offset: 0 } });
    const sent = rows.map(serializeAuditEvent).find((e) => e.action === "participant.invitation_send" && e.entity_id === participantId)!;
    expect(sent.changes).toContainEqual({ field: "two_step_locked", from: true, to: false });
    expect(sent.actor).toMatchObject({ type: "user", name: staff.name });
    expect(await sign(next, name, await freshCode(next, participantId))).toEqual({ contractState: "signed" });
  });

  it("fifty wrong tries in all lock for good: a new link no longer unlocks", async () => {
    const c = await published([{ name: "Ivy Ever", twoStep: "email" }]);
    const { participantId, partyId } = c.links["Ivy Ever"]!;
    await db.prisma.participant.update({ where: { id: participantId }, data: { twoStepWrongTriesTotal: TWO_STEP_CODE.wrongTriesEver - 1 } });
    const code = await freshCode(c.links["Ivy Ever"]!.token, participantId);
    expect(await rejection(sign(c.links["Ivy Ever"]!.token, "Ivy Ever", wrongFor(code)))).toEqual({ key: "two_step_locked", status: 403 });
    await sendInvitationAgain({ db: db.prisma, actor: staff, contractId: c.id, partyId, participantId, linkOrigin: ORIGIN });
    const { url } = await getSigningLink({ db: db.prisma, actor: staff, contractId: c.id, partyId, participantId, linkOrigin: ORIGIN });
    expect((await openSigningLink({ db: db.prisma, token: url.split("/sign/")[1]! })).you.twoStepLocked).toBe(true);
  });

  it("code requests back off: 30 s, 60 s, 120 s, … up to an hour", async () => {
    expect([1, 2, 3, 4, 20].map(resendAfterMs)).toEqual([30_000, 60_000, 120_000, 240_000, 3_600_000]);
    const c = await published([{ name: "Jo Wait", twoStep: "email" }]);
    const { token, participantId } = c.links["Jo Wait"]!;
    await sendTwoStepCode({ db: db.prisma, token });
    // 45 s after the first code: past the first pause (30 s), so a second is sent.
    await db.prisma.participant.update({ where: { id: participantId }, data: { twoStepCodeExpiresAt: new Date(Date.now() + TWO_STEP_CODE.lifetimeMs - 45_000) } });
    await sendTwoStepCode({ db: db.prisma, token });
    // 45 s after the second: the pause is now 60 s.
    await db.prisma.participant.update({ where: { id: participantId }, data: { twoStepCodeExpiresAt: new Date(Date.now() + TWO_STEP_CODE.lifetimeMs - 45_000) } });
    expect(await rejection(sendTwoStepCode({ db: db.prisma, token }))).toEqual({ key: "rate_limited", status: 429 });
  });

  it("two code requests against a wrong guess: every wrong guess is counted, at most one code goes out", async () => {
    const c = await published([{ name: "Kim Race", twoStep: "email" }]);
    const { token, participantId } = c.links["Kim Race"]!;
    const code = await freshCode(token, participantId);
    // The code still works, and the pause before the next one has passed.
    await db.prisma.participant.update({ where: { id: participantId }, data: { twoStepCodeExpiresAt: new Date(Date.now() + 60_000) } });
    const clients = [0, 1, 2].map(() => createPrismaClient(db.url, 2));
    try {
      const before = await db.prisma.emailMessage.count({ where: { participantId, kind: "two_step_code" } });
      const results = await Promise.allSettled([
        sendTwoStepCode({ db: clients[0]!, token }),
        sendTwoStepCode({ db: clients[1]!, token }),
        decideByLink({ db: clients[2]!, token, decision: { kind: "sign", fullName: "Kim Race", code: wrongFor(code) } }),
      ]);
      expect(results[2]!.status).toBe("rejected");
      const row = await db.prisma.participant.findUniqueOrThrow({ where: { id: participantId } });
      const sent = (await db.prisma.emailMessage.count({ where: { participantId, kind: "two_step_code" } })) - before;
      expect(sent).toBeLessThanOrEqual(1);
      // The guess met either the old code (counted) or the new one (counted): never lost.
      expect(row.twoStepWrongTries + row.twoStepWrongTriesTotal).toBe(2);
    } finally {
      await Promise.all(clients.map((client) => client.$disconnect()));
    }
  });
});

describe("dead links", () => {
  it("a replaced, unknown or malformed link is not live; a pending contract's is", async () => {
    const c = await published([{ name: "Lea Live" }]);
    expect(await isLiveSigningLink({ db: db.prisma, token: c.links["Lea Live"]!.token })).toBe(true);
    expect(await isLiveSigningLink({ db: db.prisma, token: "A".repeat(43) })).toBe(false);
    expect(await isLiveSigningLink({ db: db.prisma, token: "nope" })).toBe(false);
    await sign(c.links["Lea Live"]!.token, "Lea Live");
    expect(await isLiveSigningLink({ db: db.prisma, token: c.links["Lea Live"]!.token })).toBe(false);
  });
});
