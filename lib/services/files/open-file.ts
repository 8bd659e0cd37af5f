import type { PrismaClient } from "@/lib/db";
import { renderContractPdf } from "@/lib/pdf/contract-pdf";
import { loadContractDocument } from "@/lib/services/contracts/load-contract-document";
import { fileNotFound } from "@/lib/services/not-found";
import type { TContractFileRow } from "./contract-file-row";
import { fileStore } from "./file-store";

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
 * A file's bytes, once the caller has found the file and checked who may read it: a stored file
 * streams from the file store (so does an uploaded `contract` PDF); else the `contract` file is the contract rendered now (marked "Draft — not
 * final" until it is signed), from its frozen text and current parties and data fields. Rendering is
 * bounded by the body's 200 KB and yields while it saves.
 */
export async function openFile(db: PrismaClient, file: TContractFileRow): Promise<TFileContent> {
  // An uploaded PDF is the document itself, served as it is kept (docs/documents.md "Uploaded PDF").
  if (file.type === "contract" && !file.storageKey) {
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
