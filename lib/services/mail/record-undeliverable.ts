import type { EnqueueEmailOptions } from "@/lib/services/mail/enqueue-email";
import { now } from "@/lib/clock";

/**
 * A message this deployment cannot deliver (SMS without a provider), recorded so the Outbox and the
 * participant's `delivery_status` say so instead of pretending.
 */
export async function recordUndeliverable({ db, kind, contractId, participantId, to, subject, body, linkOrigin, reason }: EnqueueEmailOptions & { reason: string }): Promise<void> {
  await db.emailMessage.create({
    data: { kind, contractId, participantId, toAddress: to, subject, body, linkOrigin, status: "undeliverable", lastError: reason, createdAt: now() },
  });
}
