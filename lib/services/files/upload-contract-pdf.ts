import { createHash, randomUUID } from "node:crypto";
import { now } from "@/lib/clock";
import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { assertCanWrite } from "@/lib/domain/access";
import { DomainError } from "@/lib/domain/errors";
import { attachmentName } from "@/lib/domain/file-content";
import { inspectUploadedPdf } from "@/lib/pdf/inspect-uploaded-pdf";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { touchContract } from "@/lib/services/contracts/touch-contract";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { lockVisibleContract } from "@/lib/services/contracts/lock-visible-contract";
import { CONTRACT_FILE_SELECT, type TContractFileRow } from "./contract-file-row";
import { fileStore } from "./file-store";

export interface UploadContractPdfOptions {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  /** The name the client gave; its last segment is kept, ending in `.pdf`. */
  name: string;
  bytes: Uint8Array;
  requestId?: string;
}

const REFUSALS = { too_large: "file_too_large", not_a_pdf: "file_type_not_accepted", unacceptable: "file_unreadable" } as const;

const frozen = (contractId: number, state: string) =>
  new DomainError("contract_text_frozen", `Contract ${contractId} is ${state}; its document changes only while it is a draft.`);

/**
 * `upload_as=expanded_pdf` (docs/documents.md "Uploaded PDF"): the PDF becomes the draft's document,
 * its `contract` file, in place of the template's text: kept as the seal reads it (written out once
 * by the check, one copy of each object; lib/pdf/uploaded-pdf-script.ts), so every reader shows the
 * pages the seal stamps. Checks, in order:
 * visible (404), writable (403), a draft (409 `contract_text_frozen`), then the file
 * (lib/pdf/inspect-uploaded-pdf.ts, one sentence): at most 25 MB (413), a PDF by content (415), and a
 * PDF that may become the document (400 `file_unreadable`: encrypted, active content, signed
 * already, pages too many or too large, fonts not embedded). An
 * earlier upload is replaced; boxes on pages the new PDF lacks are removed. One transaction, audited
 * as `contract.document_upload`.
 */
export async function uploadContractPdf({ db, actor, contractId, name, bytes, requestId }: UploadContractPdfOptions): Promise<TContractFileRow> {
  // Cheap refusals first, before the file is parsed.
  const contract = await findVisibleContract(db, actor, contractId);
  assertCanWrite(actor, contract.workspaceId);
  if (contract.state !== "draft") throw frozen(contractId, contract.state);
  const inspection = await inspectUploadedPdf(bytes);
  if (!inspection.ok) throw new DomainError(REFUSALS[inspection.refused], inspection.problem);
  const { document } = inspection;

  return db.$transaction(async (tx: Tx) => {
    const locked = await lockVisibleContract(tx, actor, contractId);
    if (locked.state !== "draft") throw frozen(contractId, locked.state);
    const file = await tx.contractFile.findFirstOrThrow({ where: { contractId, type: "contract" }, select: CONTRACT_FILE_SELECT });
    if (file.storageKey) await fileStore().remove(tx, file.storageKey);
    const storageKey = randomUUID();
    const row = await tx.contractFile.update({
      where: { id: file.id },
      data: {
        name: attachmentName(name, "application/pdf"),
        contentType: "application/pdf",
        size: document.length,
        sha256: createHash("sha256").update(document).digest("hex"),
        storageKey,
        pages: inspection.pages,
        createdAt: now(),
      },
      select: CONTRACT_FILE_SELECT,
    });
    await fileStore().put(tx, storageKey, document);
    const dropped = await tx.placement.deleteMany({ where: { contractId, page: { gt: inspection.pages } } });
    await touchContract(tx, contractId, row.createdAt);
    await writeAuditEvent({
      db: tx,
      actor,
      action: "contract.document_upload",
      entityType: "contract",
      entityId: contractId,
      contractId,
      workspaceId: locked.workspaceId,
      requestId,
      ...(file.storageKey ? { before: { name: file.name, size: file.size, sha256: file.sha256 } } : {}),
      after: { name: row.name, size: row.size, sha256: row.sha256, pages: inspection.pages, boxes_removed: dropped.count },
    });
    return row as TContractFileRow;
  }, { timeout: 60_000 });
}
