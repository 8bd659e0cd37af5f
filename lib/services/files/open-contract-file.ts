import type { PrismaClient } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { getContractFile } from "./get-contract-file";
import { openFile, type TFileContent } from "./open-file";

/** A file of a contract the actor may see, with its bytes (404 as getContractFile). */
export async function openContractFile(options: { db: PrismaClient; actor: Actor; contractId: number; fileId: number }): Promise<TFileContent> {
  return openFile(options.db, await getContractFile(options));
}
