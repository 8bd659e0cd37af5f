import { now } from "@/lib/clock";
import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertCanWrite } from "@/lib/domain/access";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { touchContract } from "@/lib/services/contracts/touch-contract";
import { lockVisibleContract } from "@/lib/services/contracts/lock-visible-contract";
import { fileStore } from "./file-store";
import { fileNotFound } from "@/lib/services/not-found";

/**
 * Removes an attachment from a draft: visible (404), writable (403), the file is one of the
 * contract's attachments (404; the rendered contract PDF and the sealed copy are not removable: 409
 * `conflict`), a draft (409 `contract_text_frozen`). The row goes with its bytes, in one transaction
 * with the audit event `contract_file.delete`. The `contract` file of an uploaded PDF is removable
 * too: its bytes and boxes go, and the template's text is the document again (`contract.document_remove`).
 */
export async function deleteAttachment({ db, actor, contractId, fileId, requestId }: { db: PrismaClient; actor: Actor; contractId: number; fileId: number; requestId?: string }): Promise<void> {
  await db.$transaction(async (tx: Tx) => {
    const contract = await lockVisibleContract(tx, actor, contractId);
    const file = await tx.contractFile.findFirst({ where: { id: fileId, contractId }, select: { id: true, type: true, name: true, size: true, sha256: true, storageKey: true } });
    if (!file) throw fileNotFound(contractId, fileId);
    assertCanWrite(actor, contract.workspaceId);
    const uploaded = file.type === "contract" && file.storageKey !== null;
    if (file.type !== "attachment" && !uploaded) throw new DomainError("conflict", `File ${fileId} is the contract's ${file.type} file; only attachments and an uploaded PDF can be removed.`);
    if (contract.state !== "draft") throw new DomainError("contract_text_frozen", `Contract ${contractId} is ${contract.state}; its files change only while it is a draft.`);
    if (file.storageKey) await fileStore().remove(tx, file.storageKey);
    await touchContract(tx, contractId, now());
    if (uploaded) {
      // Back to the row every contract has (the trigger's), rendered from the text when downloaded.
      await tx.contractFile.update({ where: { id: fileId }, data: { name: "contract", size: null, sha256: null, storageKey: null, pages: null } });
      const boxes = await tx.placement.deleteMany({ where: { contractId } });
      const before = { name: file.name, size: file.size, sha256: file.sha256, boxes: boxes.count };
      await writeAuditEvent({ db: tx, actor, action: "contract.document_remove", entityType: "contract", entityId: contractId, contractId, requestId, before });
      return;
    }
    await tx.contractFile.delete({ where: { id: fileId } });
    await writeAuditEvent({ db: tx, actor, action: "contract_file.delete", entityType: "contract_file", entityId: fileId, contractId, requestId, before: { name: file.name, size: file.size, sha256: file.sha256 } });
  });
}
