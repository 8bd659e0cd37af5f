import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { fileNotFound } from "@/lib/services/not-found";
import { CONTRACT_FILE_SELECT, type TContractFileRow } from "./contract-file-row";

/** One file of a contract the actor may see; a file of another contract or workspace is not found (404). */
export async function getContractFile({ db, actor, contractId, fileId }: { db: PrismaClient | Tx; actor: Actor; contractId: number; fileId: number }): Promise<TContractFileRow> {
  await findVisibleContract(db as Tx, actor, contractId);
  const row = await db.contractFile.findFirst({ where: { id: fileId, contractId }, select: CONTRACT_FILE_SELECT });
  if (!row) throw fileNotFound(contractId, fileId);
  return row as TContractFileRow;
}
