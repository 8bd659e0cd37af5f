// Opening a stage of an ordered contract (docs/signing.md "Signing order"): called under the contract's
// row lock by publishing and by every signature, so a stage is started exactly once, in the
// transaction of the signature that completed the stage before it.
import type { Tx } from "@/lib/db";
import { type TAuditActor, OWNER_NAME } from "@/lib/domain/actor";
import type { TSigningOrder } from "@/lib/domain/enums";
import { openStage } from "@/lib/domain/signing-order";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { inviteParticipant } from "@/lib/services/signing/invite-participant";

export interface StartOpenStageOptions {
  tx: Tx;
  contract: { id: number; name: string; workspaceId: number; signingOrder: TSigningOrder; signingPeriodExpiresAt: Date | null };
  /** Who caused it: the publisher, or the signer whose signature completed the stage before. */
  actor: TAuditActor;
  linkOrigin: string;
  now: Date;
  /** The publisher's name and subject; read from the publishing's audit event when not given. */
  senderName?: string;
  subject?: string | undefined;
  requestId?: string | undefined;
}

/**
 * Invites the open stage's signatories who have not been invited yet and records the stage's start
 * (`contract.stage_start`, also a webhook event). Does nothing on a parallel contract, when every
 * signatory signed, or when the open stage was already started.
 */
export async function startOpenStage({ tx, contract, actor, linkOrigin, now, senderName, subject, requestId }: StartOpenStageOptions): Promise<number | null> {
  if (contract.signingOrder !== "ordered") return null;
  const participants = await tx.participant.findMany({
    where: { party: { contractId: contract.id } },
    orderBy: { id: "asc" },
    select: { id: true, name: true, email: true, phoneNumber: true, deliveryChannel: true, signatory: true, signOrder: true, signState: true, invitedAt: true },
  });
  const stage = openStage(contract.signingOrder, participants);
  if (stage === null) return null;
  const invitees = participants.filter((p) => p.signatory && p.signOrder === stage && p.invitedAt === null);
  if (invitees.length === 0) return null;
  let sender = senderName;
  let mailSubject = subject;
  if (sender === undefined) {
    const published = await tx.auditEvent.findFirst({ where: { contractId: contract.id, action: "contract.publish" }, orderBy: { id: "desc" }, select: { actorName: true, after: true } });
    sender = published?.actorName ?? OWNER_NAME;
    const after = published?.after as { subject?: unknown } | null | undefined;
    mailSubject = typeof after?.subject === "string" ? after.subject : undefined;
  }
  for (const invitee of invitees) {
    await inviteParticipant(tx, invitee, { contract, senderName: sender, subject: mailSubject, linkOrigin, now });
  }
  await writeAuditEvent({
    db: tx,
    actor,
    action: "contract.stage_start",
    entityType: "contract",
    entityId: contract.id,
    contractId: contract.id,
    workspaceId: contract.workspaceId,
    requestId,
    after: { stage, participant_ids: invitees.map((p) => p.id) },
  });
  return stage;
}
