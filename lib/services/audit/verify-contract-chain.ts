import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { checkContractChain, type TChainVerdict } from "@/lib/services/audit/check-contract-chain";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";

/** The chain of a contract the actor may see (else 404, as for the contract). */
export async function verifyContractChain({ db, actor, contractId }: { db: Tx; actor: Actor; contractId: number }): Promise<TChainVerdict> {
  await findVisibleContract(db, actor, contractId);
  return checkContractChain(db, contractId);
}
