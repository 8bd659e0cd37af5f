// How every route under /v1/contracts/{contract_id} finds what it works on. Not visible and not
// existing answer the same 404 (docs/api.md "Permissions": no existence leak); a path whose party or
// participant belongs elsewhere is a 404 too, never someone else's row.
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertCanWrite, workspaceScope } from "@/lib/domain/permissions";
import type { Tx } from "@/lib/db";
import { EDITABLE_CONTRACT_STATES, type TContractState } from "@/lib/domain/enums";
import type { Participant, Prisma } from "@/lib/generated/prisma/client";
import { contractNotFound } from "./contract-not-found";

// `{}` (no relations) by default; the row type follows the include given.
type TContractWith<I extends Prisma.ContractInclude> = Prisma.ContractGetPayload<{ include: I }>;
type TPartyWith<I extends Prisma.PartyInclude> = Prisma.PartyGetPayload<{ include: I }>;

/** The contract, if the actor may see it; else a 404 `resource_not_found`. */
export async function findVisibleContract<I extends Prisma.ContractInclude = {}>(
  db: Tx,
  actor: Actor,
  contractId: number,
  include?: I,
): Promise<TContractWith<I>> {
  const contract = await db.contract.findFirst({ where: { id: contractId, ...workspaceScope(actor) }, include });
  if (!contract) throw contractNotFound(contractId);
  return contract as TContractWith<I>;
}

/**
 * May the actor change this contract's parties and participants now? 403 `role_cannot_write` for a
 * viewer, then 409 `contract_not_editable` once the contract is no longer draft or pending: a
 * viewer learns nothing from the state check.
 */
export function assertContractEditable(actor: Actor, contract: { id: number; workspaceId: number; state: TContractState }): void {
  assertCanWrite(actor, contract.workspaceId);
  if (!EDITABLE_CONTRACT_STATES.includes(contract.state)) {
    throw new DomainError(
      "contract_not_editable",
      `Contract ${contract.id} is ${contract.state}; its parties and participants can only change while it is ${EDITABLE_CONTRACT_STATES.join(" or ")}.`,
    );
  }
}

/** The party, if it is one of this contract's (check the contract's visibility first); else a 404. */
export async function findPartyOfContract<I extends Prisma.PartyInclude = {}>(
  db: Tx,
  contractId: number,
  partyId: number,
  include?: I,
): Promise<TPartyWith<I>> {
  const party = await db.party.findFirst({ where: { id: partyId, contractId }, include });
  if (!party) throw new DomainError("resource_not_found", `Contract ${contractId} has no party ${partyId}.`);
  return party as TPartyWith<I>;
}

/** The participant, if it is one of this party's; else a 404. */
export async function findParticipantOfParty(db: Tx, partyId: number, participantId: number): Promise<Participant> {
  const participant = await db.participant.findFirst({ where: { id: participantId, partyId } });
  if (!participant) throw new DomainError("resource_not_found", `Party ${partyId} has no participant ${participantId}.`);
  return participant;
}

/**
 * The first step of every change to a contract's parts: locks the contract's row (`FOR UPDATE`, so
 * changes of one contract queue behind each other and a count taken now stays true until commit),
 * then finds it as `findVisibleContract` does (404 when not visible). Call it inside the transaction.
 */
export async function lockVisibleContract(db: Tx, actor: Actor, contractId: number) {
  await db.$queryRaw`SELECT id FROM contracts WHERE id = ${contractId} FOR UPDATE`;
  return findVisibleContract(db, actor, contractId);
}

/**
 * May the actor add or remove parties and participants now? 403 `role_cannot_write` for a viewer,
 * then 409 `contract_not_draft` unless the contract is a draft (docs/api.md "Parties and participants").
 */
export function assertDraftWritable(actor: Actor, contract: { id: number; workspaceId: number; state: TContractState }, what: string): void {
  assertCanWrite(actor, contract.workspaceId);
  if (contract.state !== "draft") {
    throw new DomainError("contract_not_draft", `Contract ${contract.id} is ${contract.state}; ${what} only while it is a draft.`);
  }
}

/** Marks the contract as changed now (its `updated_time`), inside the change's transaction. */
export async function touchContract(db: Tx, contractId: number, now: Date): Promise<void> {
  await db.contract.update({ where: { id: contractId }, data: { updatedAt: now } });
}
