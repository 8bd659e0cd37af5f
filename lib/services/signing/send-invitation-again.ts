import { senderNameOf } from "@/lib/domain/actor";
import type { PrismaClient, Tx } from "@/lib/db";
import { DomainError } from "@/lib/domain/errors";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { PARTICIPANT_SELECT, type TParticipantRow } from "@/lib/services/participants/participant-row";
import { findPendingParticipant, type ParticipantLinkOptions } from "@/lib/services/signing/find-pending-participant";
import { inviteParticipant } from "@/lib/services/signing/invite-participant";
import { newSigningLinkData } from "@/lib/services/signing/new-signing-link";
import { now as clockNow } from "@/lib/clock";

/**
 * Sends the invitation again with a new link (the old one stops working) and fresh code tries, which
 * is how staff unlock a participant locked out by wrong codes; audited as `participant.invitation_send`.
 * Every delivery channel: by e-mail where the participant is reached by e-mail; an `sms`, `same_device`
 * or `none` participant gets no mail (there is no SMS provider), and staff hand the new link over
 * themselves (`GET …/signing_link`; docs/web-app.md "Publishing"). The invitation restarts the
 * reminder schedule (inviteParticipant), in this same transaction.
 */
export async function sendInvitationAgain(
  options: ParticipantLinkOptions & { db: PrismaClient; linkOrigin: string; requestId?: string },
): Promise<TParticipantRow> {
  const row = await options.db.$transaction(async (tx: Tx) => {
    await tx.$queryRaw`SELECT id FROM contracts WHERE id = ${options.contractId} FOR UPDATE`;
    const { contract, participant } = await findPendingParticipant(tx, options);
    if (participant.signState !== "undecided") {
      throw new DomainError("validation_failed", `Participant ${participant.id} has already ${participant.signState}.`, {
        parameterProblems: { sign_state: [`is ${participant.signState}`] },
      });
    }
    // A later stage of an ordered contract is invited when it opens, not before.
    if (participant.signatory && participant.invitedAt === null) {
      throw new DomainError("not_your_turn", `Participant ${participant.id}'s signing stage has not opened yet; they are invited when the stage before it has signed.`);
    }
    // A new link: the old one dies (a forwarded or leaked copy with it), and the second factor starts afresh.
    const link = await newSigningLinkData(tx, participant);
    await tx.participant.update({ where: { id: participant.id }, data: link });
    const now = clockNow();
    const senderName = senderNameOf(options.actor);
    const status = await inviteParticipant(tx, participant, { contract, senderName, linkOrigin: options.linkOrigin, now });
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
      after: { delivery_status: status, ...(unlocked ? { two_step_locked: false } : {}) },
    });
    return tx.participant.findUniqueOrThrow({ where: { id: participant.id }, select: PARTICIPANT_SELECT });
  });
  mailQueued();
  return row;
}
