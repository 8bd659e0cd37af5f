import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTRACT_DETAIL_INCLUDE } from "@/lib/services/contracts/contract-row";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { findParticipantOfParty } from "@/lib/services/participants/find-participant-of-party";
import { findPartyOfContract } from "@/lib/services/parties/find-party-of-contract";
import { createTestDatabase, type TestDatabase } from "@/test/helpers/db";
import { anonymousAdmin, createReadWorld, rejection, type TReadWorld } from "@/test/services/read-fixtures";

let db: TestDatabase;
let w: TReadWorld;
beforeAll(async () => {
  db = await createTestDatabase();
  w = await createReadWorld(db.prisma);
});
afterAll(() => db.cleanup());

const notFound = { key: "resource_not_found", status: 404 };

describe("findVisibleContract", () => {
  it("finds a contract of the actor's workspace, with the relations asked for", async () => {
    const contract = await findVisibleContract(db.prisma, w.actors.editor, w.contracts.a.id, CONTRACT_DETAIL_INCLUDE);
    expect(contract.id).toBe(w.contracts.a.id);
    expect(contract.parties.map((p) => p.type)).toEqual(["company", "company", "individual"]);
    expect(contract.parties[1]!.participants.map((p) => p.name)).toEqual(["Ann", "Bo"]);
  });

  it("answers the same 404 for another workspace's contract and for one that does not exist", async () => {
    expect(await rejection(findVisibleContract(db.prisma, w.actors.editor, w.contracts.b.id))).toEqual(notFound);
    expect(await rejection(findVisibleContract(db.prisma, w.actors.editor, 2_147_483_647))).toEqual(notFound);
  });

  it("lets admins, the anonymous one included, see every contract", async () => {
    for (const actor of [w.actors.admin, anonymousAdmin]) {
      expect((await findVisibleContract(db.prisma, actor, w.contracts.b.id)).id).toBe(w.contracts.b.id);
    }
  });
});

describe("findPartyOfContract / findParticipantOfParty", () => {
  it("find a party of the contract and a participant of the party", async () => {
    const partyB = await db.prisma.party.findFirstOrThrow({ where: { contractId: w.contracts.b.id, myParty: false } });
    const party = await findPartyOfContract(db.prisma, w.contracts.b.id, partyB.id, { participants: true });
    expect(party.participants).toHaveLength(1);
    const participant = await findParticipantOfParty(db.prisma, party.id, party.participants[0]!.id);
    expect(participant.name).toBe("Dag");
  });

  it("answer 404 for a party of another contract and a participant of another party", async () => {
    const partyA = await db.prisma.party.findFirstOrThrow({ where: { contractId: w.contracts.a.id }, include: { participants: true } });
    const partyB = await db.prisma.party.findFirstOrThrow({ where: { contractId: w.contracts.b.id, myParty: false }, include: { participants: true } });
    expect(await rejection(findPartyOfContract(db.prisma, w.contracts.b.id, partyA.id))).toEqual(notFound);
    expect(await rejection(findParticipantOfParty(db.prisma, partyA.id, partyB.participants[0]!.id))).toEqual(notFound);
  });
});
