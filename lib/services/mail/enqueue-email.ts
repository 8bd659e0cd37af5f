import type { Tx } from "@/lib/db";
import { mailIsSent } from "@/lib/services/mail/mail-is-sent";
import { now } from "@/lib/clock";

export type TEmailKind =
  | "invitation"
  | "two_step_code"
  | "two_step_lock"
  | "signed"
  | "declined"
  | "reminder"
  | "expiry_warning"
  | "sealed"
  | "withdrawn"
  // The owner's warning before a notice deadline or an end date, and an internal reminder (docs/lifecycle.md).
  | "lifecycle_warning"
  | "contract_reminder";

export interface EnqueueEmailOptions {
  db: Tx;
  kind: TEmailKind;
  contractId: number;
  participantId: number | null;
  to: string;
  subject: string;
  /** Plain text; `{{signing_link}}` and `{{code}}` are filled in when it is sent or shown. */
  body: string;
  linkOrigin: string;
  /** A stored file (contract_files) sent along with the message: the sealed copy. */
  attachmentFileId?: number;
}

/**
 * Writes a message into the outbox, inside the caller's transaction: it exists exactly when the
 * change that causes it commits. Call `mailQueued()` (mail-wakeup.ts) after the commit.
 */
export async function enqueueEmail({ db, kind, contractId, participantId, to, subject, body, linkOrigin, attachmentFileId }: EnqueueEmailOptions): Promise<void> {
  await db.emailMessage.create({
    data: { kind, contractId, participantId, toAddress: to, subject, body, linkOrigin, status: mailIsSent() ? "queued" : "kept", attachmentFileId: attachmentFileId ?? null, createdAt: now() },
  });
}
