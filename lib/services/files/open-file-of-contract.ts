import type { PrismaClient } from "@/lib/db";
import { fileNotFound } from "@/lib/services/not-found";
import { CONTRACT_FILE_SELECT, type TContractFileRow } from "./contract-file-row";
import { openFile, type TFileContent } from "./open-file";

/** A file of `contractId` with its bytes, for a caller who proved access otherwise (a participant's signing link); 404 if it has no such file. */
export async function openFileOfContract(db: PrismaClient, contractId: number, fileId: number): Promise<TFileContent> {
  const file = await db.contractFile.findFirst({ where: { id: fileId, contractId }, select: CONTRACT_FILE_SELECT });
  if (!file) throw fileNotFound(contractId, fileId);
  return openFile(db, file as TContractFileRow);
}
