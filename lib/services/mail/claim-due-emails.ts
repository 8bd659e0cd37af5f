import type { PrismaClient } from "@/lib/db";
import { claimDue, type TLeaseQueue } from "@/lib/services/jobs/claim-due";

/** Messages claimed per statement. */
export const EMAIL_BATCH_SIZE = 10;
/**
 * How long a claim lasts. Longer than a batch can take: every send is bounded by the transport's
 * timeouts (SMTP_TIMEOUTS, about a minute at worst), and a run stops sending once half the lease is gone.
 */
export const EMAIL_LEASE_MS = 15 * 60_000;

/** The outbox as the lease helpers see it. */
export const EMAILS: TLeaseQueue = { table: "email_messages", key: "id", claimed: "sending" };

/** A message as claimed: what sending needs, nothing more. */
export interface TClaimedEmail {
  id: number;
  kind: string;
  contractId: number | null;
  participantId: number | null;
  toAddress: string;
  subject: string;
  body: string;
  linkOrigin: string;
  /** This claim's attempt number; it fences every later write of the message. */
  attempts: number;
  /** A stored file sent along (email-attachments.ts). */
  attachmentFileId: number | null;
}

/**
 * Claims up to `batchSize` due messages (queued and due, or `sending` with an expired lease) in one
 * committed statement, and returns them.
 */
export async function claimDueEmails(prisma: PrismaClient, { batchSize = EMAIL_BATCH_SIZE, leaseMs = EMAIL_LEASE_MS } = {}): Promise<TClaimedEmail[]> {
  return claimDue<TClaimedEmail>(prisma, EMAILS, {
    batchSize,
    leaseMs,
    order: "q.id",
    returning: `d.id, d.kind, d.contract_id AS "contractId", d.participant_id AS "participantId", d.to_address AS "toAddress", d.subject, d.body,
                d.link_origin AS "linkOrigin", d.attempts, d.attachment_file_id AS "attachmentFileId"`,
  });
}
