import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { CONTRACT_FILE_SELECT, type TContractFileRow } from "./contract-file-row";

/** GET /v1/contracts/{id}/files: the contract PDF, the sealed copy once there is one, the attachments; 404 unless visible. */
export async function listContractFiles({ db, actor, contractId }: { db: PrismaClient | Tx; actor: Actor; contractId: number }): Promise<TContractFileRow[]> {
  await findVisibleContract(db as Tx, actor, contractId);
  const rows = await db.contractFile.findMany({ where: { contractId }, select: CONTRACT_FILE_SELECT, orderBy: { id: "asc" } });
  return rows as TContractFileRow[];
}
