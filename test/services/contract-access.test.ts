import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "@/lib/domain/errors";
import { CONTRACT_DETAIL_INCLUDE } from "@/lib/services/contracts/contract-row";
import { assertContractEditable } from "@/lib/services/contracts/editing-rules";
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

describe("assertContractEditable", () => {
  const contract = (state: "draft" | "pending" | "signed" | "declined" | "overdue", workspaceId = w.workspaces.a.id) => ({
    id: 1,
    workspaceId,
    state,
  });
  const thrown = (fn: () => void) => {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      return { key: (error as DomainError).key, status: (error as DomainError).status };
    }
    return null;
  };

  it("allows editors and admins while the contract is draft or pending", () => {
    for (const state of ["draft", "pending"] as const) {
      expect(thrown(() => assertContractEditable(w.actors.editor, contract(state)))).toBeNull();
      expect(thrown(() => assertContractEditable(anonymousAdmin, contract(state)))).toBeNull();
    }
  });

  it("refuses a viewer with 403 before looking at the state", () => {
    expect(thrown(() => assertContractEditable(w.actors.viewer, contract("draft")))).toEqual({ key: "role_cannot_write", status: 403 });
    expect(thrown(() => assertContractEditable(w.actors.viewer, contract("signed")))).toEqual({ key: "role_cannot_write", status: 403 });
  });

  it("answers 409 once the contract is signed, declined or overdue", () => {
    for (const state of ["signed", "declined", "overdue"] as const) {
      expect(thrown(() => assertContractEditable(w.actors.editor, contract(state)))).toEqual({ key: "contract_not_editable", status: 409 });
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
