import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { loadContractDocument, type TLoadedDocument } from "@/lib/services/contracts/load-contract-document";

/** GET /v1/contracts/{id}/document: 404 unless the actor may see the contract. */
export async function getContractDocument({ db, actor, contractId }: { db: PrismaClient | Tx; actor: Actor; contractId: number }): Promise<TLoadedDocument> {
  await findVisibleContract(db as Tx, actor, contractId);
  return loadContractDocument(db, contractId);
}
