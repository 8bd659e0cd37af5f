import type { PrismaClient, Tx } from "@/lib/db";
import { type Actor, senderNameOf } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertCanWrite } from "@/lib/domain/access";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { enqueueEmail } from "@/lib/services/mail/enqueue-email";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { withdrawnMail } from "@/lib/services/mail/messages";
import { now as clockNow } from "@/lib/clock";

export interface WithdrawContractOptions {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  /** Put in the e-mail and the audit event; "" for none. */
  reason: string;
  linkOrigin: string;
  requestId?: string;
}

/**
 * docs/signing.md "Withdrawing and overdue": staff take a pending contract back. In one transaction under the
 * contract's row lock (so no signature lands in between): 404 → 403 (viewers) → 409 unless pending;
 * the contract becomes `withdrawn`, every signing link and e-mailed code dies, mail not yet sent
 * for it (invitations, reminders, codes) is withdrawn, each participant who had been invited is
 * told once, and the change is audited (`contract.withdraw`, also a webhook event). The contract and
 * its trail stay readable.
 */
export async function withdrawContract({ db, actor, contractId, reason, linkOrigin, requestId }: WithdrawContractOptions): Promise<void> {
  await db.$transaction(async (tx: Tx) => {
    await findVisibleContract(tx, actor, contractId);
    const [contract] = await tx.$queryRaw<{ id: number; name: string; state: string; workspace_id: number }[]>`
      SELECT id, name, state, workspace_id FROM contracts WHERE id = ${contractId} FOR UPDATE`;
    if (!contract) throw new DomainError("resource_not_found", `Contract ${contractId} does not exist.`);
    assertCanWrite(actor, contract.workspace_id);
    if (contract.state !== "pending") {
      throw new DomainError("contract_not_pending", `Contract ${contractId} is ${contract.state}; only a pending contract can be withdrawn.`);
    }
    const now = clockNow();
    await tx.contract.update({ where: { id: contractId }, data: { state: "withdrawn", stateUpdatedAt: now, updatedAt: now } });
    await tx.participant.updateMany({
      where: { party: { contractId } },
      data: { signingNonce: null, signingTokenHash: null, twoStepCodeNonce: null, twoStepCodeExpiresAt: null, updatedAt: now },
    });
    await tx.emailMessage.updateMany({
      where: { contractId, status: { in: ["queued", "kept"] } },
      data: { status: "failed", lastError: "withdrawn: the contract was withdrawn" },
    });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "contract.withdraw",
      entityType: "contract",
      entityId: contractId,
      contractId,
      workspaceId: contract.workspace_id,
      requestId,
      before: { state: "pending" },
      after: { state: "withdrawn", ...(reason ? { reason } : {}) },
    });
    // Those who were told about the contract, and only they: a later stage never invited learns nothing.
    const told = await tx.participant.findMany({
      where: { party: { contractId }, invitedAt: { not: null }, delegatedAt: null, deliveryChannel: { in: ["email", "email_and_sms"] }, email: { not: "" } },
      orderBy: { id: "asc" },
      select: { id: true, name: true, email: true },
    });
    const withdrawnBy = senderNameOf(actor);
    for (const person of told) {
      const mail = withdrawnMail({ participantName: person.name, contractName: contract.name, withdrawnBy, reason });
      await enqueueEmail({ db: tx, kind: "withdrawn", contractId, participantId: person.id, to: person.email, linkOrigin, ...mail });
    }
  });
  mailQueued();
}
