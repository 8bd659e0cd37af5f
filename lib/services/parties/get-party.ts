import type { Actor } from "@/lib/domain/actor";
import { PARTY_WITH_PARTICIPANTS_INCLUDE, type TPartyRow } from "@/lib/services/parties/party-row";
import type { Tx } from "@/lib/db";
import { findPartyOfContract, findVisibleContract } from "@/lib/services/contracts/find-visible-contract";

export interface GetPartyOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
  partyId: number;
}

/** A party of a contract the actor may see, with its participants; 404 for anything else. */
export async function getParty({ db, actor, contractId, partyId }: GetPartyOptions): Promise<TPartyRow> {
  await findVisibleContract(db, actor, contractId);
  return findPartyOfContract(db, contractId, partyId, PARTY_WITH_PARTICIPANTS_INCLUDE);
}
