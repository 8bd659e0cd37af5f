import type { Actor } from "@/lib/domain/actor";
import { CONTRACT_DETAIL_INCLUDE, type TContractDetailRow } from "@/lib/services/contracts/contract-row";
import type { Tx } from "@/lib/db";

import { findVisibleContract } from "./find-visible-contract";

export interface GetContractOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
}

/** The contract with its parties and their participants, if the actor may see it (else 404). */
export async function getContract({ db, actor, contractId }: GetContractOptions): Promise<TContractDetailRow> {
  return findVisibleContract(db, actor, contractId, CONTRACT_DETAIL_INCLUDE);
}
