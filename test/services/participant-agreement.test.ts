// Issue 38 in the participant update (docs/api.md "Updating a participant"): who must sign is frozen once
// published, a participant who decided keeps the identity they decided under, and an undecided
// participant's new e-mail gets a new link (the old one dies) and the invitation. Runs on the
// embedded database and, with TEST_DB=postgres, on PostgreSQL, where the race really races.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContract } from "@/lib/db/seed/factories";
import type { TUserActor } from "@/lib/domain/actor";
import type { TUpdateParticipantRequest } from "@/lib/schemas";
import { publishContract } from "@/lib/services/contracts/publish-contract";
import { updateParticipant } from "@/lib/services/participants/update-participant";
import { getSigningLink } from "@/lib/services/signing/get-signing-link";
import { decideByLink } from "@/lib/services/signing/decide-by-link";
import { isLiveSigningLink } from "@/lib/services/signing/is-live-signing-link";
import type { TestDatabase } from "@/test/helpers/db";
import { createStaff, createTestWorld, ownerOf } from "@/test/helpers/world";
import { rejection } from "@/test/services/read-fixtures";

const ORIGIN = "http://agreement.test";
let db: TestDatabase;
let staff: TUserActor;
let ws: { id: number };
let template: { id: number };

beforeAll(async () => {
  ({ db, ws, template } = await createTestWorld({ template: { twoStepMethods: ["none", "email"], signMethods: ["standard_esign", "swedish_bankid"] } }));
  staff = await createStaff(db.prisma);
});
afterAll(() => db.cleanup());

/** A contract (published unless `draft`) whose counterparties are individuals with one signatory each; their paths and links by name. */
async function contractOf(names: string[], { draft = false } = {}) {
  const contract = await createContract(db.prisma, {
    workspaceId: ws.id,
    templateId: template.id,
    owner: ownerOf(staff),
    counterparties: names.map((name) => ({ type: "individual" as const, participant: { name, email: `${name.toLowerCase().replace(/ /g, ".")}@example.org` } })),
  });
  if (!draft) await publishContract({ db: db.prisma, actor: staff, contractId: contract.id, linkOrigin: ORIGIN });
  const parties = await db.prisma.party.findMany({ where: { contractId: contract.id, myParty: false }, include: { participants: true }, orderBy: { id: "asc" } });
  const people: Record<string, { contractId: number; partyId: number; participantId: number; token: string }> = {};
  for (const party of parties) {
    const p = party.participants[0]!;
    const path = { contractId: contract.id, partyId: party.id, participantId: p.id };
    const token = draft ? "" : (await getSigningLink({ db: db.prisma, actor: staff, ...path, linkOrigin: ORIGIN })).url.split("/sign/")[1]!;
    people[p.name] = { ...path, token };
  }
  return { id: contract.id, people };
}

const update = (path: { contractId: number; partyId: number; participantId: number }, changes: TUpdateParticipantRequest) =>
  updateParticipant({ db: db.prisma, actor: staff, ...path, changes, requestId: "agreement", linkOrigin: ORIGIN }).then((update) => update.participant);
const sign = (token: string, fullName: string) => decideByLink({ db: db.prisma, token, decision: { kind: "sign", fullName } });

describe("who must sign is frozen once published", () => {
  it("refuses a change of `signatory` on a pending contract (409 signatories_frozen), for a decided and an undecided participant", async () => {
    const c = await contractOf(["Ann A", "Ben B", "Cid C"]);
    await sign(c.people["Ann A"]!.token, "Ann A");
    expect(await rejection(update(c.people["Ann A"]!, { signatory: false }))).toEqual({ key: "signatories_frozen", status: 409 });
    // The last undecided signatory of a counterparty: demoting them would leave it without one.
    expect(await rejection(update(c.people["Cid C"]!, { signatory: false }))).toEqual({ key: "signatories_frozen", status: 409 });
    expect((await db.prisma.participant.findUniqueOrThrow({ where: { id: c.people["Cid C"]!.participantId } })).signatory).toBe(true);
    // So the contract is signed only once Cid has signed too.
    expect(await sign(c.people["Ben B"]!.token, "Ben B")).toEqual({ contractState: "pending" });
    expect(await sign(c.people["Cid C"]!.token, "Cid C")).toEqual({ contractState: "signed" });
  });

  it("lets a draft's signatories change, and lets a pending contract's other attributes change", async () => {
    const draft = await contractOf(["Dan D"], { draft: true });
    expect((await update(draft.people["Dan D"]!, { signatory: false, _permissions: { "contract:update": false } })).signatory).toBe(false);
    const c = await contractOf(["Eve E"]);
    expect((await update(c.people["Eve E"]!, { title: "CFO", signatory: true })).title).toBe("CFO");
  });
});

describe("a participant who decided keeps the identity they decided under", () => {
  it.each([
    ["name", { name: "Somebody Else" }],
    ["e-mail", { email: "other@example.org" }],
    ["sign method", { sign_method: "swedish_bankid" }],
    ["two-step method", { two_step_authentication_method: "email" }],
  ] as const)("refuses a change of their %s with 409 participant_decided, and keeps the row", async (_, change) => {
    const c = await contractOf(["Fay F", "Gus G"]);
    await sign(c.people["Fay F"]!.token, "Fay F");
    const before = await db.prisma.participant.findUniqueOrThrow({ where: { id: c.people["Fay F"]!.participantId } });
    expect(await rejection(update(c.people["Fay F"]!, change as TUpdateParticipantRequest))).toEqual({ key: "participant_decided", status: 409 });
    expect(await db.prisma.participant.findUniqueOrThrow({ where: { id: before.id } })).toEqual(before);
  });

  it("still lets their title and phone number change", async () => {
    const c = await contractOf(["Hal H", "Ivy I"]);
    await sign(c.people["Hal H"]!.token, "Hal H");
    expect((await update(c.people["Hal H"]!, { title: "Director", phone_number: "+46701111111" })).title).toBe("Director");
  });
});

describe("links follow the address", () => {
  it("a new e-mail on a pending contract kills the old link, issues a new one and invites the new address, in the update's transaction", async () => {
    const c = await contractOf(["Jon J", "Kim K"]);
    const jon = c.people["Jon J"]!;
    const oldMail = await db.prisma.emailMessage.findFirstOrThrow({ where: { participantId: jon.participantId, kind: "invitation" } });
    await update(jon, { email: "jon.right@example.org" });
    expect(await isLiveSigningLink({ db: db.prisma, token: jon.token })).toBe(false);
    const { url } = await getSigningLink({ db: db.prisma, actor: staff, ...jon, linkOrigin: ORIGIN });
    expect(await isLiveSigningLink({ db: db.prisma, token: url.split("/sign/")[1]! })).toBe(true);
    const invitations = await db.prisma.emailMessage.findMany({ where: { participantId: jon.participantId, kind: "invitation" }, orderBy: { id: "asc" } });
    expect(invitations.map((m) => m.toAddress)).toEqual([oldMail.toAddress, "jon.right@example.org"]);
    // Not yet sent to the old address: withdrawn, since its link would be rendered from the new nonce.
    if (oldMail.status === "queued" || oldMail.status === "kept") expect(invitations[0]!.status).toBe("failed");
    // Anything else changes nothing of the link.
    await update(jon, { title: "Buyer" });
    expect(await isLiveSigningLink({ db: db.prisma, token: url.split("/sign/")[1]! })).toBe(true);
  });

  it("a new e-mail restarts the reminder schedule from the new invitation, and the update answers the row as the invitation left it", async () => {
    const c = await contractOf(["Nat N", "Oz O"]);
    const nat = c.people["Nat N"]!;
    const longAgo = new Date(Date.now() - 30 * 86_400_000);
    await db.prisma.participant.update({ where: { id: nat.participantId }, data: { invitedAt: longAgo, remindersSent: 3, lastRemindedAt: longAgo, deliveryStatus: "failure" } });
    const started = Date.now();
    const participant = await update(nat, { email: "nat.right@example.org" });
    const row = await db.prisma.participant.findUniqueOrThrow({ where: { id: nat.participantId } });
    expect(row.invitedAt!.getTime()).toBeGreaterThanOrEqual(started - 1000);
    expect([row.remindersSent, row.lastRemindedAt, row.deliveryStatus]).toEqual([0, null, "pending"]);
    // What the update answers (and its ETag's version) is the row as it now is, not as before the invitation.
    expect([participant.version, participant.deliveryStatus, participant.invitedAt?.getTime()]).toEqual([row.version, "pending", row.invitedAt!.getTime()]);
  });

  it("a signature racing an e-mail change: never both (the old link signs and the address stays, or the address changes and the old link is dead)", async () => {
    for (let round = 0; round < 5; round++) {
      const c = await contractOf([`Lea ${round}`, `Max ${round}`]);
      const lea = c.people[`Lea ${round}`]!;
      const [signed, changed] = await Promise.allSettled([sign(lea.token, `Lea ${round}`), update(lea, { email: `lea.${round}.new@example.org` })]);
      expect([signed.status, changed.status].filter((s) => s === "fulfilled")).toHaveLength(1);
      const row = await db.prisma.participant.findUniqueOrThrow({ where: { id: lea.participantId } });
      if (signed.status === "fulfilled") expect([row.signState, row.email]).toEqual(["signed", `lea.${round}@example.org`]);
      else expect([row.signState, row.email]).toEqual(["undecided", `lea.${round}.new@example.org`]);
    }
  });
});
