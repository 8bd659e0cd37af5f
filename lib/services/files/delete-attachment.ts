import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertCanWrite } from "@/lib/domain/access";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { lockVisibleContract } from "@/lib/services/contracts/lock-visible-contract";
import { fileStore } from "./file-store";
import { fileNotFound } from "@/lib/services/not-found";

/**
 * Removes an attachment from a draft: visible (404), writable (403), the file is one of the
 * contract's attachments (404; the contract PDF and the sealed copy are not removable: 409
 * `conflict`), a draft (409 `contract_text_frozen`). The row goes with its bytes, in one transaction
 * with the audit event `contract_file.delete`.
 */
export async function deleteAttachment({ db, actor, contractId, fileId, requestId }: { db: PrismaClient; actor: Actor; contractId: number; fileId: number; requestId?: string }): Promise<void> {
  await db.$transaction(async (tx: Tx) => {
    const contract = await lockVisibleContract(tx, actor, contractId);
    const file = await tx.contractFile.findFirst({ where: { id: fileId, contractId }, select: { id: true, type: true, name: true, size: true, sha256: true, storageKey: true } });
    if (!file) throw fileNotFound(contractId, fileId);
    assertCanWrite(actor, contract.workspaceId);
    if (file.type !== "attachment") throw new DomainError("conflict", `File ${fileId} is the contract's ${file.type} file; only attachments can be removed.`);
    if (contract.state !== "draft") throw new DomainError("contract_text_frozen", `Contract ${contractId} is ${contract.state}; attachments change only while it is a draft.`);
    if (file.storageKey) await fileStore().remove(tx, file.storageKey);
    await tx.contractFile.delete({ where: { id: fileId } });
    await writeAuditEvent({ db: tx, actor, action: "contract_file.delete", entityType: "contract_file", entityId: fileId, contractId, requestId, before: { name: file.name, size: file.size, sha256: file.sha256 } });
  });
}
