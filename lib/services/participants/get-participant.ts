import type { Actor } from "@/lib/domain/actor";
import type { Tx } from "@/lib/db";
import type { Participant } from "@/lib/generated/prisma/client";
import { findParticipantOfParty, findPartyOfContract, findVisibleContract } from "@/lib/services/contracts/find-visible-contract";

export interface GetParticipantOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
  partyId: number;
  participantId: number;
}

/** A participant of a party of a contract the actor may see; 404 unless the path names that chain. */
export async function getParticipant({ db, actor, contractId, partyId, participantId }: GetParticipantOptions): Promise<Participant> {
  await findVisibleContract(db, actor, contractId);
  await findPartyOfContract(db, contractId, partyId);
  return findParticipantOfParty(db, partyId, participantId);
}
