import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertCanWrite } from "@/lib/domain/access";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { findParticipantOfParty } from "@/lib/services/participants/find-participant-of-party";
import { findPartyOfContract } from "@/lib/services/parties/find-party-of-contract";

export interface ParticipantLinkOptions {
  actor: Actor;
  contractId: number;
  partyId: number;
  participantId: number;
}

/** The participant of a pending contract the actor may change: 404, then 403, then 409. */
export async function findPendingParticipant(tx: Tx, { actor, contractId, partyId, participantId }: ParticipantLinkOptions) {
  const contract = await findVisibleContract(tx, actor, contractId);
  const party = await findPartyOfContract(tx, contract.id, partyId);
  const participant = await findParticipantOfParty(tx, party.id, participantId);
  assertCanWrite(actor, contract.workspaceId);
  if (contract.state !== "pending") {
    throw new DomainError("contract_not_pending", `Contract ${contract.id} is ${contract.state}; signing links work only while it is pending.`);
  }
  if (participant.signingNonce === null) {
    throw new DomainError("contract_not_pending", `Participant ${participant.id} was added after publishing and has no signing link.`);
  }
  return { contract, party, participant, nonce: participant.signingNonce };
}
