import { now } from "@/lib/clock";
import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertCanWrite } from "@/lib/domain/access";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { fileStore } from "@/lib/services/files/file-store";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";

export interface DeleteContractOptions {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  requestId?: string;
}

/**
 * Deletes a contract with its parties, participants and data fields, in one transaction with its
 * audit event (which outlives it). Checks, in order: visible (404), writable (403), a draft unless
 * the actor is an admin (409 `contract_not_deletable`). The row is locked first, so a concurrent
 * publish or edit either finishes before the deletion or finds the contract gone. A sealed copy
 * outlives its contract: the seal, when done, is kept in `deleted_contract_seals` (its SHA-256, its
 * certificate's, when it was sealed; nothing personal), so /verify still tells the copy intact.
 */
export async function deleteContract({ db, actor, contractId, requestId }: DeleteContractOptions): Promise<void> {
  await db.$transaction(async (tx: Tx) => {
    await findVisibleContract(tx, actor, contractId);
    const [row] = await tx.$queryRaw<{ id: number; name: string; state: string; workspace_id: number }[]>`
      SELECT id, name, state::text AS state, workspace_id FROM contracts WHERE id = ${contractId} FOR UPDATE`;
    if (!row) throw new DomainError("resource_not_found", `Contract ${contractId} does not exist.`);
    assertCanWrite(actor, row.workspace_id);
    if (row.state !== "draft" && !actor.isAdmin) {
      throw new DomainError("contract_not_deletable", `Contract ${contractId} is ${row.state}; only a draft can be deleted, except by an administrator.`);
    }
    // A sealer storing this contract's copy inserts its file first, which waits for the lock above
    // (or holds it off until it committed): a seal done by now is read here.
    await tx.$executeRaw`
      INSERT INTO deleted_contract_seals (contract_id, sha256, certificate_sha256, sealed_at, deleted_at)
      SELECT contract_id, sha256, certificate_sha256, sealed_at, ${now()} FROM contract_seals
       WHERE contract_id = ${contractId} AND status = 'done' AND sha256 IS NOT NULL AND certificate_sha256 IS NOT NULL AND sealed_at IS NOT NULL`;
    // Its files' bytes go through the file store (whatever the backend), then the rows cascade.
    for (const file of await tx.contractFile.findMany({ where: { contractId, storageKey: { not: null } }, select: { storageKey: true } })) {
      await fileStore().remove(tx, file.storageKey!);
    }
    await tx.contract.delete({ where: { id: contractId } });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "contract.delete",
      entityType: "contract",
      entityId: contractId,
      contractId,
      requestId,
      before: { id: row.id, name: row.name, state: row.state, workspace_id: row.workspace_id },
    });
  });
}
