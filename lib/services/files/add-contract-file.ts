// A stored file of a contract (an attachment, the sealed copy): its row and its bytes in the
// caller's transaction, which also writes the change's audit event.
import { createHash, randomUUID } from "node:crypto";
import type { Tx } from "@/lib/db";
import type { TContractFileType } from "@/lib/domain/contract-document";
import { CONTRACT_FILE_SELECT, type TContractFileRow } from "./contract-file-row";
import { fileStore } from "./file-store";
import { now } from "@/lib/clock";

export interface TNewContractFile {
  contractId: number;
  type: Exclude<TContractFileType, "contract">;
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

export async function addContractFile(tx: Tx, file: TNewContractFile): Promise<TContractFileRow> {
  const storageKey = randomUUID();
  const row = await tx.contractFile.create({
    data: {
      contractId: file.contractId,
      type: file.type,
      name: file.name,
      contentType: file.contentType,
      size: file.bytes.length,
      sha256: createHash("sha256").update(file.bytes).digest("hex"),
      storageKey,
      createdAt: now(),
    },
    select: CONTRACT_FILE_SELECT,
  });
  await fileStore().put(tx, storageKey, file.bytes);
  return row as TContractFileRow;
}
