import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { renderContractPdf } from "@/lib/pdf/contract-pdf";
import { loadContractDocument } from "@/lib/services/contracts/contract-document";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { CONTRACT_FILE_SELECT, type TContractFileRow } from "./contract-file-row";
import { fileStore } from "./file-store";

export const fileNotFound = (contractId: number, fileId: number) => new DomainError("resource_not_found", `Contract ${contractId} has no file ${fileId}.`);

/** One file of a contract the actor may see; a file of another contract or workspace is not found (404). */
export async function getContractFile({ db, actor, contractId, fileId }: { db: PrismaClient | Tx; actor: Actor; contractId: number; fileId: number }): Promise<TContractFileRow> {
  await findVisibleContract(db as Tx, actor, contractId);
  const row = await db.contractFile.findFirst({ where: { id: fileId, contractId }, select: CONTRACT_FILE_SELECT });
  if (!row) throw fileNotFound(contractId, fileId);
  return row as TContractFileRow;
}

export interface TFileContent {
  file: TContractFileRow;
  /** The name to download as, with its extension. */
  fileName: string;
  contentType: string;
  /** Known up front for stored files; the rendered PDF's once built. */
  size: number;
  body: ReadableStream<Uint8Array>;
}

/**
 * A file's bytes: a stored file streams from the file store; the `contract` file is the contract
 * rendered now (marked "Draft — not final" until it is signed), from its frozen text and current
 * parties and data fields. Rendering is bounded by the body's 200 KB and yields while it saves.
 */
export async function openContractFile(options: { db: PrismaClient; actor: Actor; contractId: number; fileId: number }): Promise<TFileContent> {
  return openFile(options.db, await getContractFile(options));
}

/** The same for a caller who proved access otherwise (a participant's signing link for `contractId`). */
export async function openFileOfContract(db: PrismaClient, contractId: number, fileId: number): Promise<TFileContent> {
  const file = await db.contractFile.findFirst({ where: { id: fileId, contractId }, select: CONTRACT_FILE_SELECT });
  if (!file) throw fileNotFound(contractId, fileId);
  return openFile(db, file as TContractFileRow);
}

async function openFile(db: PrismaClient, file: TContractFileRow): Promise<TFileContent> {
  if (file.type === "contract") {
    const { contract, document, attachments } = await loadContractDocument(db, file.contractId);
    // A signed contract's PDF is dated at its completion, so its bytes (and SHA-256) are the ones the
    // sealed copy's certificate names (lib/services/seal/build-sealed-pdf.ts).
    const signed = contract.state === "signed";
    const bytes = await renderContractPdf(document, { contractId: contract.id, draft: !signed, attachments, ...(signed ? { creationDate: contract.stateUpdatedAt } : {}) });
    return { file, fileName: `${document.title}.pdf`, contentType: "application/pdf", size: bytes.length, body: new Blob([bytes as Uint8Array<ArrayBuffer>]).stream() };
  }
  if (!file.storageKey) throw fileNotFound(file.contractId, file.id);
  return { file, fileName: file.name, contentType: file.contentType, size: file.size ?? 0, body: fileStore().stream(db, file.storageKey) };
}
