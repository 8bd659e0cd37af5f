import type { PrismaClient, Tx } from "@/lib/db";
import { DomainError } from "@/lib/domain/errors";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { enqueueEmail } from "@/lib/services/mail/enqueue-email";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { invitationMail } from "@/lib/services/mail/messages";
import { PARTICIPANT_SELECT, type TParticipantRow } from "@/lib/services/participants/participant-row";
import { findPendingParticipant, type ParticipantLinkOptions } from "@/lib/services/signing/find-pending-participant";
import { newSigningLinkData } from "@/lib/services/signing/new-signing-link";

/**
 * Queues the invitation again with a new link (the old one stops working) and fresh code tries, which
 * is how staff unlock a participant locked out by wrong codes; audited as `participant.invitation_send`.
 */
export async function sendInvitationAgain(
  options: ParticipantLinkOptions & { db: PrismaClient; linkOrigin: string; requestId?: string },
): Promise<TParticipantRow> {
  const row = await options.db.$transaction(async (tx: Tx) => {
    await tx.$queryRaw`SELECT id FROM contracts WHERE id = ${options.contractId} FOR UPDATE`;
    const { contract, participant } = await findPendingParticipant(tx, options);
    if (participant.deliveryChannel !== "email" && participant.deliveryChannel !== "email_and_sms") {
      throw new DomainError("validation_failed", `Participant ${participant.id} is not reached by e-mail (delivery channel ${participant.deliveryChannel}); copy the signing link instead.`, {
        parameterProblems: { delivery_channel: ["must be email or email_and_sms to send an invitation by e-mail"] },
      });
    }
    if (participant.signState !== "undecided") {
      throw new DomainError("validation_failed", `Participant ${participant.id} has already ${participant.signState}.`, {
        parameterProblems: { sign_state: [`is ${participant.signState}`] },
      });
    }
    // A later stage of an ordered contract is invited when it opens, not before.
    if (participant.signatory && participant.invitedAt === null) {
      throw new DomainError("not_your_turn", `Participant ${participant.id}'s signing stage has not opened yet; they are invited when the stage before it has signed.`);
    }
    const sender = options.actor.kind === "user" ? options.actor.name : "The contract's owner";
    const mail = invitationMail({
      participantName: participant.name,
      senderName: sender,
      contractName: contract.name,
      signatory: participant.signatory,
      subject: undefined,
      message: undefined,
      expiresAt: contract.signingPeriodExpiresAt ?? new Date(),
    });
    await enqueueEmail({ db: tx, kind: "invitation", contractId: contract.id, participantId: participant.id, to: participant.email, linkOrigin: options.linkOrigin, ...mail });
    // A new link: the old one dies (a forwarded or leaked copy with it), and the second factor starts afresh.
    const link = await newSigningLinkData(tx, participant);
    const updated = await tx.participant.update({
      where: { id: participant.id },
      data: { ...link, deliveryStatus: "pending", version: { increment: 1 }, updatedAt: new Date() },
      select: PARTICIPANT_SELECT,
    });
    const unlocked = participant.twoStepLockedAt !== null && link.twoStepLockedAt === null;
    await writeAuditEvent({
      db: tx,
      actor: options.actor,
      action: "participant.invitation_send",
      entityType: "participant",
      entityId: participant.id,
      contractId: contract.id,
      requestId: options.requestId,
      before: { delivery_status: participant.deliveryStatus, ...(unlocked ? { two_step_locked: true } : {}) },
      after: { delivery_status: "pending", ...(unlocked ? { two_step_locked: false } : {}) },
    });
    return updated;
  });
  mailQueued();
  return row;
}
