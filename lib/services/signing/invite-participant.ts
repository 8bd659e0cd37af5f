// Sending a participant their invitation (docs/signing.md "Publishing", "Signing order"): at
// publishing, when their stage of an ordered contract opens, to a delegate, and when staff send it
// again (a new link, which also unlocks a participant locked by wrong codes). Always inside the
// transaction of the change that causes it, so the mail exists exactly when the change does.
import type { Tx } from "@/lib/db";
import type { TDeliveryChannel } from "@/lib/domain/enums";
import type { DeliveryStatus } from "@/lib/generated/prisma/client";
import { enqueueEmail } from "@/lib/services/mail/enqueue-email";
import { recordUndeliverable } from "@/lib/services/mail/record-undeliverable";
import { invitationMail } from "@/lib/services/mail/messages";

/** Where each channel's invitation goes, and what the participant's delivery_status becomes. */
function deliveryOf(channel: TDeliveryChannel): { email: boolean; sms: boolean; status: DeliveryStatus } {
  switch (channel) {
    case "email":
      return { email: true, sms: false, status: "pending" };
    case "email_and_sms":
      return { email: true, sms: true, status: "pending" };
    case "sms":
      // No SMS provider: said so in the outbox and in delivery_status, never pretended.
      return { email: false, sms: true, status: "failure" };
    case "same_device":
    case "none":
      return { email: false, sms: false, status: "not_sent" };
  }
}

export interface TInvitee {
  id: number;
  name: string;
  email: string;
  phoneNumber: string;
  deliveryChannel: TDeliveryChannel;
  signatory: boolean;
}

export interface TInvitation {
  contract: { id: number; name: string; signingPeriodExpiresAt: Date | null };
  senderName: string;
  subject?: string | undefined;
  message?: string | undefined;
  linkOrigin: string;
  now: Date;
}

/**
 * Queues the invitation by the participant's channel (the link is rendered from their nonce when the
 * message is sent) and records it: `invited_at` and `delivery_status`, which it answers. The reminder
 * schedule starts again from this invitation (docs/mail.md "Reminders": the job counts from
 * `invited_at`, and the count and the last reminder start afresh). The participant must already
 * have their signing link.
 */
export async function inviteParticipant(tx: Tx, participant: TInvitee, invitation: TInvitation): Promise<DeliveryStatus> {
  const { contract, senderName, subject, message, linkOrigin, now } = invitation;
  const delivery = deliveryOf(participant.deliveryChannel);
  await tx.participant.update({
    where: { id: participant.id },
    data: { invitedAt: now, remindersSent: 0, lastRemindedAt: null, deliveryStatus: delivery.status, version: { increment: 1 }, updatedAt: now },
  });
  const mail = invitationMail({
    participantName: participant.name,
    senderName,
    contractName: contract.name,
    signatory: participant.signatory,
    subject,
    message,
    expiresAt: contract.signingPeriodExpiresAt ?? now,
  });
  const base = { db: tx, kind: "invitation" as const, contractId: contract.id, participantId: participant.id, linkOrigin, ...mail };
  if (delivery.email) await enqueueEmail({ ...base, to: participant.email });
  if (delivery.sms) {
    await recordUndeliverable({ ...base, to: participant.phoneNumber, reason: "SMS cannot be sent: this deployment has no SMS provider. Copy the signing link from the contract page and share it another way." });
  }
  return delivery.status;
}
