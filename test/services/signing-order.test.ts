// Issue 37: signing order, delegation and withdrawing (lib/services/signing, lib/services/contracts).
// Each rule is checked where it is decided, and every refusal changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContract } from "@/lib/db/seed/factories";
import type { TUserActor } from "@/lib/domain/actor";
import { ZCreateContractRequestSchema } from "@/lib/schemas";
import { createContract as createContractService } from "@/lib/services/contracts/create-contract";
import { getPublishReadiness } from "@/lib/services/contracts/get-publish-readiness";
import { publishContract } from "@/lib/services/contracts/publish-contract";
import { withdrawContract } from "@/lib/services/contracts/withdraw-contract";
import { updateParticipant } from "@/lib/services/participants/update-participant";
import { twoStepCode } from "@/lib/domain/signing";
import { CONTRACT_LIMITS } from "@/lib/schemas/limits";
import { delegateByLink } from "@/lib/services/signing/delegate-by-link";
import { sendTwoStepCode } from "@/lib/services/signing/send-two-step-code";
import { loadSigningSecret } from "@/lib/services/signing/signing-secret";
import { getSigningLink } from "@/lib/services/signing/get-signing-link";
import { sendInvitationAgain } from "@/lib/services/signing/send-invitation-again";
import { decideByLink } from "@/lib/services/signing/decide-by-link";
import { isLiveSigningLink } from "@/lib/services/signing/is-live-signing-link";
import { openSigningLink } from "@/lib/services/signing/open-signing-link";
import type { TestDatabase } from "@/test/helpers/db";
import { createStaff, createTestWorld, ownerOf } from "@/test/helpers/world";
import { actorOf, rejection } from "@/test/services/read-fixtures";

const ORIGIN = "http://signing.test";
let db: TestDatabase;
let staff: TUserActor;
let viewer: TUserActor;
let ws: { id: number };
let template: { id: number };

beforeAll(async () => {
  let members: { viewer: { id: number } };
  ({ db, ws, template, members } = await createTestWorld({ template: { twoStepMethods: ["none", "email"] }, members: ["viewer"] }));
  staff = await createStaff(db.prisma);
  viewer = await actorOf(db.prisma, members.viewer);
});
afterAll(() => db.cleanup());

type TPerson = { name: string; order?: number | null; twoStep?: "none" | "email" };

/** A draft whose counterparties each have one signatory (e-mail `<first name>@example.org`), with the orders given. */
async function draft(people: TPerson[], options: { ordered?: boolean; delegationAllowed?: boolean; companies?: boolean } = {}) {
  const contract = await createContract(db.prisma, {
    workspaceId: ws.id,
    templateId: template.id,
    owner: ownerOf(staff),
    counterparties: people.map((p) => {
      const participant = { name: p.name, email: `${p.name.split(" ")[0]!.toLowerCase()}.${Date.now()}@example.org`, twoStepMethod: p.twoStep ?? "none" } as const;
      return options.companies ? { type: "company" as const, name: `${p.name} AB`, participants: [participant] } : { type: "individual" as const, participant };
    }),
  });
  await db.prisma.contract.update({ where: { id: contract.id }, data: { signingOrder: options.ordered === false ? "parallel" : "ordered", delegationAllowed: options.delegationAllowed ?? true } });
  const parties = await db.prisma.party.findMany({ where: { contractId: contract.id, myParty: false }, include: { participants: true }, orderBy: { id: "asc" } });
  const ids: Record<string, { participantId: number; partyId: number }> = {};
  for (const [i, party] of parties.entries()) {
    const p = party.participants[0]!;
    await db.prisma.participant.update({ where: { id: p.id }, data: { signOrder: people[i]!.order ?? null } });
    ids[p.name] = { participantId: p.id, partyId: party.id };
  }
  return { id: contract.id, ids };
}

async function linkOf(contractId: number, who: { participantId: number; partyId: number }) {
  const { url } = await getSigningLink({ db: db.prisma, actor: staff, contractId, partyId: who.partyId, participantId: who.participantId, linkOrigin: ORIGIN });
  return url.split("/sign/")[1]!;
}

async function published(people: TPerson[], options: { ordered?: boolean; delegationAllowed?: boolean; companies?: boolean } = {}) {
  const c = await draft(people, options);
  await publishContract({ db: db.prisma, actor: staff, contractId: c.id, linkOrigin: ORIGIN });
  const links: Record<string, string> = {};
  for (const [name, who] of Object.entries(c.ids)) links[name] = await linkOf(c.id, who);
  return { ...c, links };
}

const sign = (token: string, fullName: string) => decideByLink({ db: db.prisma, token, decision: { kind: "sign", fullName } });
const decline = (token: string) => decideByLink({ db: db.prisma, token, decision: { kind: "decline", reason: "no" } });
const invitedIds = async (contractId: number) =>
  (await db.prisma.emailMessage.findMany({ where: { contractId, kind: "invitation" }, orderBy: { id: "asc" } })).map((m) => m.participantId);
const events = async (contractId: number, action: string) => db.prisma.auditEvent.findMany({ where: { contractId, action }, orderBy: { id: "asc" } });
const stateOf = async (id: number) => (await db.prisma.contract.findUniqueOrThrow({ where: { id } })).state;

describe("signing order", () => {
  it("invites each stage only when the stage before it has signed, and records each stage's start", async () => {
    const c = await published([{ name: "Ann A", order: 1 }, { name: "Ben B", order: 1 }, { name: "Cid C", order: 2 }]);
    const [ann, ben, cid] = [c.ids["Ann A"]!, c.ids["Ben B"]!, c.ids["Cid C"]!];
    // The organizer (who does not sign) and stage 1.
    expect((await invitedIds(c.id)).filter((id) => id !== null && id !== undefined).sort()).toEqual(expect.arrayContaining([ann.participantId, ben.participantId]));
    expect(await invitedIds(c.id)).not.toContain(cid.participantId);
    expect((await events(c.id, "contract.stage_start")).map((e) => (e.after as { stage: number }).stage)).toEqual([1]);
    expect((await db.prisma.participant.findUniqueOrThrow({ where: { id: cid.participantId } })).invitedAt).toBeNull();

    await sign(c.links["Ann A"]!, "Ann A");
    expect(await invitedIds(c.id)).not.toContain(cid.participantId);
    await sign(c.links["Ben B"]!, "Ben B");
    // Ben's signature completed stage 1: Cid's invitation and the stage's start, in that transaction.
    expect(await invitedIds(c.id)).toContain(cid.participantId);
    const starts = await events(c.id, "contract.stage_start");
    expect(starts.map((e) => (e.after as { stage: number; participant_ids: number[] }).stage)).toEqual([1, 2]);
    expect((starts[1]!.after as { participant_ids: number[] }).participant_ids).toEqual([cid.participantId]);
    expect(starts[1]!.via).toBe("signing_link");
    expect(await sign(c.links["Cid C"]!, "Cid C")).toEqual({ contractState: "signed" });
  });

  it("refuses a signatory out of turn with 409 not_your_turn, to sign and to decline, and changes nothing", async () => {
    const c = await published([{ name: "Dan D", order: 1 }, { name: "Eve E", order: 2 }]);
    const eve = c.ids["Eve E"]!;
    const before = await db.prisma.participant.findUniqueOrThrow({ where: { id: eve.participantId } });
    const view = await openSigningLink({ db: db.prisma, token: c.links["Eve E"]! });
    expect(view.you.yourTurn).toBe(false);
    expect(view.openStage).toBe(1);
    expect(await rejection(sign(c.links["Eve E"]!, "Eve E"))).toEqual({ key: "not_your_turn", status: 409 });
    expect(await rejection(decline(c.links["Eve E"]!))).toEqual({ key: "not_your_turn", status: 409 });
    const after = await db.prisma.participant.findUniqueOrThrow({ where: { id: eve.participantId } });
    expect(after.signState).toBe("undecided");
    expect(after.version).toBe(before.version);
    expect(await stateOf(c.id)).toBe("pending");
    expect(await events(c.id, "participant.decline")).toEqual([]);
    expect((await openSigningLink({ db: db.prisma, token: c.links["Dan D"]! })).you.yourTurn).toBe(true);
    // Staff cannot send the invitation of a stage that has not opened either.
    expect(await rejection(sendInvitationAgain({ db: db.prisma, actor: staff, contractId: c.id, ...eve, linkOrigin: ORIGIN }))).toEqual({ key: "not_your_turn", status: 409 });
    expect(await db.prisma.emailMessage.count({ where: { participantId: eve.participantId } })).toBe(0);
  });

  it("a parallel contract invites every signatory at publishing, whatever their numbers", async () => {
    const c = await published([{ name: "Fay F", order: 1 }, { name: "Gus G", order: 2 }], { ordered: false });
    expect(await invitedIds(c.id)).toEqual(expect.arrayContaining([c.ids["Fay F"]!.participantId, c.ids["Gus G"]!.participantId]));
    expect(await sign(c.links["Gus G"]!, "Gus G")).toEqual({ contractState: "pending" });
    expect(await events(c.id, "contract.stage_start")).toEqual([]);
  });

  it("publishing needs every signatory numbered 1, 2, … without gaps (409 naming each sign_order)", async () => {
    const gap = await draft([{ name: "Hal H", order: 1 }, { name: "Ida I", order: 3 }]);
    expect((await getPublishReadiness({ db: db.prisma, actor: staff, contractId: gap.id })).map((p) => p.path)).toEqual(["parties.2.participants.0.sign_order"]);
    const missing = await draft([{ name: "Jon J", order: 1 }, { name: "Kim K", order: null }]);
    const error = await publishContract({ db: db.prisma, actor: staff, contractId: missing.id, linkOrigin: ORIGIN }).catch((e: unknown) => e as { key: string; parameterProblems: Record<string, string[]> });
    expect(error).toMatchObject({ key: "contract_not_publishable" });
    expect(Object.keys((error as { parameterProblems: Record<string, string[]> }).parameterProblems)).toEqual(["parties.2.participants.0.sign_order"]);
    expect(await stateOf(missing.id)).toBe("draft");
    expect(await db.prisma.emailMessage.count({ where: { contractId: missing.id } })).toBe(0);
  });

  it("creating an ordered contract refuses gaps and missing numbers (400 naming the field); 0 and negatives are refused by the schema", async () => {
    const request = (orders: (number | undefined)[]) =>
      ZCreateContractRequestSchema.parse({
        workspace_id: ws.id,
        template_id: template.id,
        signing_order: "ordered",
        parties: orders.map((sign_order, i) => ({ type: "individual", participant: { name: `P ${i}`, email: `p${i}@example.org`, signatory: true, ...(sign_order === undefined ? {} : { sign_order }) } })),
      });
    const count = await db.prisma.contract.count();
    type TRefusal = { key: string; status: number; parameterProblems: Record<string, string[]> };
    const refusal = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => e as TRefusal);
    const error = await refusal(createContractService({ db: db.prisma, actor: staff, request: request([1, 3]) }));
    expect(error).toMatchObject({ key: "validation_failed", status: 400 });
    expect(Object.keys(error!.parameterProblems)).toEqual(["parties.1.participant.sign_order"]);
    expect(Object.keys((await refusal(createContractService({ db: db.prisma, actor: staff, request: request([1, undefined]) })))!.parameterProblems)).toEqual(["parties.1.participant.sign_order"]);
    expect(await db.prisma.contract.count()).toBe(count);
    for (const bad of [0, -1, 1.5]) {
      const parsed = ZCreateContractRequestSchema.safeParse({ workspace_id: ws.id, template_id: template.id, parties: [{ type: "individual", participant: { name: "X", sign_order: bad } }] });
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues[0]!.path).toEqual(["parties", 0, "participant", "sign_order"]);
    }
    const made = await createContractService({ db: db.prisma, actor: staff, request: request([1, 2, 2]) });
    const stored = await db.prisma.contract.findUniqueOrThrow({ where: { id: made.id }, include: { parties: { include: { participants: true }, orderBy: { id: "asc" } } } });
    expect(stored.signingOrder).toBe("ordered");
    expect(stored.parties.slice(1).map((p) => p.participants[0]!.signOrder)).toEqual([1, 2, 2]);
  });

  it("sign_order changes by PUT while a draft, and is frozen once published (409 signatories_frozen)", async () => {
    const c = await draft([{ name: "Lea L", order: 1 }, { name: "Max M", order: 2 }]);
    const max = c.ids["Max M"]!;
    const put = (sign_order: number | null) => updateParticipant({ db: db.prisma, actor: staff, contractId: c.id, ...max, changes: { sign_order }, linkOrigin: ORIGIN });
    expect((await put(1)).participant.signOrder).toBe(1);
    await put(2);
    await publishContract({ db: db.prisma, actor: staff, contractId: c.id, linkOrigin: ORIGIN });
    expect(await rejection(put(1))).toEqual({ key: "signatories_frozen", status: 409 });
    expect((await db.prisma.participant.findUniqueOrThrow({ where: { id: max.participantId } })).signOrder).toBe(2);
  });
});

describe("delegation", () => {
  it("hands the signature to a new participant with their own link; the delegator's link dies; the trail shows both", async () => {
    const c = await published([{ name: "Nia N", order: 1 }], { ordered: false, companies: true });
    const nia = c.ids["Nia N"]!;
    const email = `dora.${Date.now()}@example.org`;
    await delegateByLink({ db: db.prisma, token: c.links["Nia N"]!, delegation: { name: "Dora Delegate", email, reason: "Dora signs for us" } });
    expect(await isLiveSigningLink({ db: db.prisma, token: c.links["Nia N"]! })).toBe(false);
    const delegator = await db.prisma.participant.findUniqueOrThrow({ where: { id: nia.participantId } });
    expect(delegator).toMatchObject({ signatory: false, signingTokenHash: null });
    expect(delegator.delegatedAt).not.toBeNull();
    const delegate = await db.prisma.participant.findUniqueOrThrow({ where: { id: delegator.delegatedToId! } });
    expect(delegate).toMatchObject({ name: "Dora Delegate", email, signatory: true, partyId: nia.partyId });
    expect(delegate.invitedAt).not.toBeNull();
    const mail = await db.prisma.emailMessage.findFirstOrThrow({ where: { participantId: delegate.id, kind: "invitation" } });
    expect(mail.body).toContain("Dora signs for us");
    const [event] = await events(c.id, "participant.delegate");
    expect(event).toMatchObject({ entityId: nia.participantId, via: "signing_link", actorName: "Nia N" });
    expect(event!.after).toEqual({ signatory: false, delegate_name: "Dora Delegate", delegate_email: email, reason: "Dora signs for us" });
    const token = await linkOf(c.id, { participantId: delegate.id, partyId: nia.partyId });
    expect(await sign(token, "Dora Delegate")).toEqual({ contractState: "signed" });
  });

  it("refuses an address that already takes part (400), after a decision and once the contract has ended (409), and when not allowed (409); nothing changes", async () => {
    const c = await published([{ name: "Ola O" }, { name: "Pia P" }], { ordered: false, companies: true });
    const pia = await db.prisma.participant.findUniqueOrThrow({ where: { id: c.ids["Pia P"]!.participantId } });
    const count = await db.prisma.participant.count();
    const delegate = (token: string, email: string) => delegateByLink({ db: db.prisma, token, delegation: { name: "Someone", email, reason: "" } });
    expect(await rejection(delegate(c.links["Ola O"]!, pia.email.toUpperCase()))).toEqual({ key: "delegate_already_participant", status: 400 });
    expect(await rejection(delegate(c.links["Ola O"]!, staff.email))).toEqual({ key: "delegate_already_participant", status: 400 });
    expect(await isLiveSigningLink({ db: db.prisma, token: c.links["Ola O"]! })).toBe(true);
    await sign(c.links["Ola O"]!, "Ola O");
    expect(await rejection(delegate(c.links["Ola O"]!, "new.one@example.org"))).toEqual({ key: "already_decided", status: 409 });
    await decline(c.links["Pia P"]!);
    expect(await rejection(delegate(c.links["Pia P"]!, "new.two@example.org"))).toEqual({ key: "contract_not_pending", status: 409 });
    expect(await db.prisma.participant.count()).toBe(count);
    expect(await events(c.id, "participant.delegate")).toEqual([]);

    const closed = await published([{ name: "Quy Q" }], { ordered: false, delegationAllowed: false, companies: true });
    expect(await rejection(delegate(closed.links["Quy Q"]!, "new.three@example.org"))).toEqual({ key: "delegation_not_allowed", status: 409 });
    expect(await isLiveSigningLink({ db: db.prisma, token: closed.links["Quy Q"]! })).toBe(true);
    // A private individual is their party: nobody else signs for them.
    const person = await published([{ name: "Una U" }], { ordered: false });
    expect((await openSigningLink({ db: db.prisma, token: person.links["Una U"]! })).you.canDelegate).toBe(false);
    expect(await rejection(delegate(person.links["Una U"]!, "new.four@example.org"))).toEqual({ key: "delegation_not_allowed", status: 409 });
  });

  it("with an e-mailed code: only in turn, only with the live code (wrong ones counted toward the lock), never once locked", async () => {
    const c = await published([{ name: "Vic V", order: 1, twoStep: "email" }, { name: "Wen W", order: 2, twoStep: "email" }], { companies: true });
    const handOn = (token: string, code?: string) =>
      delegateByLink({ db: db.prisma, token, delegation: { name: "Xia X", email: `xia.${Date.now()}@example.org`, reason: "", code } });
    const vic = c.ids["Vic V"]!.participantId;
    // Out of turn: no code can be had yet, so no handover either; the page does not offer it.
    expect((await openSigningLink({ db: db.prisma, token: c.links["Wen W"]! })).you.canDelegate).toBe(false);
    expect(await rejection(handOn(c.links["Wen W"]!))).toEqual({ key: "not_your_turn", status: 409 });
    // In turn: the page offers it, but the link alone does not hand on.
    expect((await openSigningLink({ db: db.prisma, token: c.links["Vic V"]! })).you.canDelegate).toBe(true);
    expect(await rejection(handOn(c.links["Vic V"]!))).toEqual({ key: "two_step_code_invalid", status: 400 });
    await sendTwoStepCode({ db: db.prisma, token: c.links["Vic V"]! });
    expect(await rejection(handOn(c.links["Vic V"]!, "000000"))).toEqual({ key: "two_step_code_invalid", status: 400 });
    expect((await db.prisma.participant.findUniqueOrThrow({ where: { id: vic } })).twoStepWrongTries).toBe(1);
    expect(await events(c.id, "participant.delegate")).toEqual([]);
    const row = await db.prisma.participant.findUniqueOrThrow({ where: { id: vic } });
    await handOn(c.links["Vic V"]!, twoStepCode(await loadSigningSecret(db.prisma), vic, row.twoStepCodeNonce!));
    expect(await events(c.id, "participant.delegate")).toHaveLength(1);
    // A locked link hands nothing on (and the page says so instead of offering it).
    const locked = await published([{ name: "Yan Y", twoStep: "email" }], { ordered: false, companies: true });
    await db.prisma.participant.update({ where: { id: locked.ids["Yan Y"]!.participantId }, data: { twoStepLockedAt: new Date() } });
    expect((await openSigningLink({ db: db.prisma, token: locked.links["Yan Y"]! })).you.canDelegate).toBe(false);
    expect(await rejection(handOn(locked.links["Yan Y"]!, "123456"))).toEqual({ key: "two_step_locked", status: 403 });
  });

  it("a chain of handovers stops at the most participants a party may have (409), each link adding one", async () => {
    const c = await published([{ name: "Zed Z" }], { ordered: false, companies: true });
    const { partyId } = c.ids["Zed Z"]!;
    let token = c.links["Zed Z"]!;
    for (let i = 1; i < CONTRACT_LIMITS.participantsPerParty; i++) {
      await delegateByLink({ db: db.prisma, token, delegation: { name: `Link ${i}`, email: `link${i}.${Date.now()}@example.org`, reason: "" } });
      const next = await db.prisma.participant.findFirstOrThrow({ where: { partyId, name: `Link ${i}` } });
      token = await linkOf(c.id, { participantId: next.id, partyId });
    }
    expect(await db.prisma.participant.count({ where: { partyId } })).toBe(CONTRACT_LIMITS.participantsPerParty);
    const refused = delegateByLink({ db: db.prisma, token, delegation: { name: "One more", email: `more.${Date.now()}@example.org`, reason: "" } });
    expect(await rejection(refused)).toEqual({ key: "delegation_not_allowed", status: 409 });
    expect(await db.prisma.participant.count({ where: { partyId } })).toBe(CONTRACT_LIMITS.participantsPerParty);
  });

  it("a decline's reason and a delegate's name are stored in mail as typed, never as a placeholder the outbox would fill in", async () => {
    const c = await published([{ name: "Amy A" }, { name: "Ben B" }], { ordered: false, companies: true });
    await delegateByLink({ db: db.prisma, token: c.links["Amy A"]!, delegation: { name: "Cal {{code}}", email: `cal.${Date.now()}@example.org`, reason: "see {{signing_link}}" } });
    await decideByLink({ db: db.prisma, token: c.links["Ben B"]!, decision: { kind: "decline", reason: "Price too high {{code}}" } });
    const mails = await db.prisma.emailMessage.findMany({ where: { contractId: c.id, kind: { in: ["invitation", "declined"] } } });
    const declined = mails.filter((m) => m.kind === "declined");
    expect(declined.length).toBeGreaterThan(0);
    for (const mail of declined) expect(mail.body).toContain("Price too high { {code} }");
    const handedOn = mails.find((m) => m.body.includes("asked you to sign in their place"))!;
    expect(handedOn.body).toContain("see { {signing_link} }");
    // The invitation's own link stays the one placeholder it holds.
    expect(handedOn.body.match(/\{\{[a-z_]+\}\}/g)).toEqual(["{{signing_link}}"]);
  });

  it("a delegate of a later stage is invited when that stage opens, and signs in its turn", async () => {
    const c = await published([{ name: "Ray R", order: 1 }, { name: "Sam S", order: 2 }], { companies: true });
    await delegateByLink({ db: db.prisma, token: c.links["Sam S"]!, delegation: { name: "Tia T", email: `tia.${Date.now()}@example.org`, reason: "" } });
    const tia = await db.prisma.participant.findFirstOrThrow({ where: { name: "Tia T", party: { contractId: c.id } } });
    expect(tia).toMatchObject({ signOrder: 2, invitedAt: null });
    const token = await linkOf(c.id, { participantId: tia.id, partyId: tia.partyId });
    expect(await rejection(sign(token, "Tia T"))).toEqual({ key: "not_your_turn", status: 409 });
    await sign(c.links["Ray R"]!, "Ray R");
    expect(await invitedIds(c.id)).toContain(tia.id);
    expect(await sign(token, "Tia T")).toEqual({ contractState: "signed" });
  });
});

describe("withdrawing", () => {
  it("kills every link, tells each invited participant once, audits, and keeps the contract readable", async () => {
    const c = await published([{ name: "Uma U", order: 1 }, { name: "Val V", order: 2 }]);
    const queuedBefore = await db.prisma.emailMessage.count({ where: { contractId: c.id, kind: "invitation", status: { in: ["queued", "kept"] } } });
    expect(queuedBefore).toBeGreaterThan(0);
    await withdrawContract({ db: db.prisma, actor: staff, contractId: c.id, reason: "Terms changed", linkOrigin: ORIGIN });
    expect(await stateOf(c.id)).toBe("withdrawn");
    for (const token of Object.values(c.links)) {
      expect(await isLiveSigningLink({ db: db.prisma, token })).toBe(false);
      expect(await rejection(sign(token, "x"))).toEqual({ key: "resource_not_found", status: 404 });
    }
    const told = await db.prisma.emailMessage.findMany({ where: { contractId: c.id, kind: "withdrawn" } });
    // Uma and the organizer were invited; Val's stage never opened, so Val is not told.
    expect(told.map((m) => m.participantId).sort()).toEqual(expect.arrayContaining([c.ids["Uma U"]!.participantId]));
    expect(told.map((m) => m.participantId)).not.toContain(c.ids["Val V"]!.participantId);
    expect(new Set(told.map((m) => m.participantId)).size).toBe(told.length);
    expect(told[0]!.body).toContain("Terms changed");
    expect(await db.prisma.emailMessage.count({ where: { contractId: c.id, kind: "invitation", status: { in: ["queued", "kept"] } } })).toBe(0);
    expect((await events(c.id, "contract.withdraw"))[0]!.after).toEqual({ state: "withdrawn", reason: "Terms changed" });

    // Once only: a second withdraw is refused and tells nobody again.
    expect(await rejection(withdrawContract({ db: db.prisma, actor: staff, contractId: c.id, reason: "", linkOrigin: ORIGIN }))).toEqual({ key: "contract_not_pending", status: 409 });
    expect(await db.prisma.emailMessage.count({ where: { contractId: c.id, kind: "withdrawn" } })).toBe(told.length);
  });

  it("is for editors and admins, and only for a pending contract; a refusal changes nothing", async () => {
    const c = await published([{ name: "Wes W" }], { ordered: false });
    expect(await rejection(withdrawContract({ db: db.prisma, actor: viewer, contractId: c.id, reason: "", linkOrigin: ORIGIN }))).toEqual({ key: "role_cannot_write", status: 403 });
    expect(await stateOf(c.id)).toBe("pending");
    expect(await isLiveSigningLink({ db: db.prisma, token: c.links["Wes W"]! })).toBe(true);
    const d = await draft([{ name: "Xia X" }], { ordered: false });
    expect(await rejection(withdrawContract({ db: db.prisma, actor: staff, contractId: d.id, reason: "", linkOrigin: ORIGIN }))).toEqual({ key: "contract_not_pending", status: 409 });
    expect(await events(d.id, "contract.withdraw")).toEqual([]);
  });
});
