import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { attachmentName, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, sniffAttachmentType } from "@/lib/domain/file-content";
import { assertCanWrite } from "@/lib/domain/access";
import { attachmentPdfProblem } from "@/lib/domain/attachment-pdf";
import { readAttachmentPdf } from "@/lib/pdf/read-attachment-pdf";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { touchContract } from "@/lib/services/contracts/touch-contract";
import { lockVisibleContract } from "@/lib/services/contracts/lock-visible-contract";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { addContractFile } from "./add-contract-file";
import type { TContractFileRow } from "./contract-file-row";

export interface UploadAttachmentOptions {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  /** The name the client gave; only its last segment is kept, with the extension its content calls for. */
  name: string;
  bytes: Uint8Array;
  requestId?: string;
}

const frozen = (contractId: number, state: string) =>
  new DomainError("contract_text_frozen", `Contract ${contractId} is ${state}; attachments change only while it is a draft.`);

/**
 * Attaches a file to a draft (docs/documents.md). Checks, in order: visible (404),
 * writable (403), a draft (409 `contract_text_frozen`), at most 10 MB (413 `file_too_large`), PDF,
 * PNG or JPEG by content (415 `file_type_not_accepted`), a PDF that parses within bounds and holds
 * nothing that acts when opened (400 `file_unreadable`, lib/domain/attachment-pdf.ts), fewer than 20 attachments (409 `attachment_limit_reached`, counted under the
 * contract's lock). The row, its bytes and the audit event `contract_file.create` in one transaction.
 */
export async function uploadAttachment({ db, actor, contractId, name, bytes, requestId }: UploadAttachmentOptions): Promise<TContractFileRow> {
  // Cheap refusals first, before the file is parsed.
  const contract = await findVisibleContract(db, actor, contractId);
  assertCanWrite(actor, contract.workspaceId);
  if (contract.state !== "draft") throw frozen(contractId, contract.state);
  if (bytes.length > MAX_ATTACHMENT_BYTES) throw new DomainError("file_too_large", `The file is ${bytes.length} bytes; an attachment may be at most ${MAX_ATTACHMENT_BYTES}.`);
  const type = sniffAttachmentType(bytes);
  if (!type) throw new DomainError("file_type_not_accepted", "The file is not a PDF, PNG or JPEG (told by its content).");
  if (type === "application/pdf") {
    const problem = attachmentPdfProblem(await readAttachmentPdf(bytes));
    if (problem !== null) throw new DomainError("file_unreadable", problem);
  }
  return db.$transaction(async (tx: Tx) => {
    const locked = await lockVisibleContract(tx, actor, contractId);
    if (locked.state !== "draft") throw frozen(contractId, locked.state);
    const count = await tx.contractFile.count({ where: { contractId, type: "attachment" } });
    if (count >= MAX_ATTACHMENTS) throw new DomainError("attachment_limit_reached", `Contract ${contractId} already has ${MAX_ATTACHMENTS} attachments.`);
    const row = await addContractFile(tx, { contractId, type: "attachment", name: attachmentName(name, type), contentType: type, bytes });
    await touchContract(tx, contractId, row.createdAt);
    await writeAuditEvent({
      db: tx,
      actor,
      action: "contract_file.create",
      entityType: "contract_file",
      entityId: row.id,
      contractId,
      requestId,
      after: { name: row.name, content_type: row.contentType, size: row.size, sha256: row.sha256 },
    });
    return row;
  }, { timeout: 30_000 });
}
