// The outbox deliverer (docs/mail.md). Every app process runs one (unless BACKGROUND_JOBS=off);
// several may share one PostgreSQL. A run claims due messages with a lease (lib/services/jobs/claim-due.ts)
// and sends them after that commit. A process that dies mid-send leaves its claims to expire; another
// run claims them again: delivery is at least once.
import type { Transporter } from "nodemailer";

import type { PrismaClient } from "@/lib/db";
import { backoffDelay } from "@/lib/domain/retry";
import { logger } from "@/lib/logger";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { endAttempt } from "@/lib/services/jobs/end-attempt";
import { releaseClaims } from "@/lib/services/jobs/release-claims";
import { claimDueEmails, EMAIL_LEASE_MS, EMAILS, type TClaimedEmail } from "@/lib/services/mail/claim-due-emails";
import { emailAttachments } from "@/lib/services/mail/email-attachments";
import { EmailRenderError } from "@/lib/services/mail/render-email-bodies";
import { renderEmailBody } from "@/lib/services/mail/render-email-body";
import { cutText } from "@/lib/domain/cut-text";

/** A message is given up after this many attempts. */
export const MAX_EMAIL_ATTEMPTS = 8;

export interface TDeliverOptions {
  prisma: PrismaClient;
  transport: Pick<Transporter, "sendMail">;
  from: string;
  batchSize?: number;
  leaseMs?: number;
  maxAttempts?: number;
  /** Back-off before attempt `attempt + 1`; lib/domain/retry.ts by default. */
  retryDelay?: (attempt: number) => number;
  /** Checked between messages: when true, the run stops and hands back the messages it has not sent. */
  shouldStop?: () => boolean;
}

export interface TDeliveryRun {
  claimed: number;
  sent: number;
  retrying: number;
  failed: number;
  released: number;
}

/** One run: claim a batch, send each message, record each outcome. */
export async function deliverDueEmails(options: TDeliverOptions): Promise<TDeliveryRun> {
  const { prisma, leaseMs = EMAIL_LEASE_MS, shouldStop = () => false } = options;
  const claimedAt = Date.now();
  const claimed = await claimDueEmails(prisma, { batchSize: options.batchSize, leaseMs });
  const run: TDeliveryRun = { claimed: claimed.length, sent: 0, retrying: 0, failed: 0, released: 0 };
  for (const [index, message] of claimed.entries()) {
    if (shouldStop() || Date.now() - claimedAt > leaseMs / 2) {
      run.released += await releaseClaims(prisma, EMAILS, claimed.slice(index).map((m) => ({ key: m.id, attempts: m.attempts })));
      break;
    }
    const outcome = await deliverOne(options, message);
    run[outcome] += 1;
  }
  return run;
}

async function deliverOne(options: TDeliverOptions, message: TClaimedEmail): Promise<"sent" | "retrying" | "failed"> {
  const { prisma, transport, from, maxAttempts = MAX_EMAIL_ATTEMPTS, retryDelay = (attempt: number) => backoffDelay(attempt) } = options;
  const log = { email_message_id: message.id, kind: message.kind, attempt: message.attempts };
  let text: string;
  let attachments: Awaited<ReturnType<typeof emailAttachments>>;
  try {
    text = await renderEmailBody({ db: prisma, message });
    attachments = await emailAttachments(prisma, message);
  } catch (error) {
    if (!(error instanceof EmailRenderError)) throw error;
    await recordFailure(prisma, message, error.message);
    logger.warn({ ...log, error: error.message }, "mail cannot be rendered; failed");
    return "failed";
  }
  try {
    await transport.sendMail({ from, to: message.toAddress, subject: message.subject, text, attachments });
  } catch (error) {
    const reason = describeSendError(error);
    if (isPermanent(error) || message.attempts >= maxAttempts) {
      await recordFailure(prisma, message, reason);
      logger.warn({ ...log, error: reason }, "mail failed");
      return "failed";
    }
    const delay = retryDelay(message.attempts);
    await endAttempt(prisma, EMAILS, { key: message.id, attempts: message.attempts }, { status: "queued", error: reason, delayMs: delay });
    logger.info({ ...log, error: reason, retry_in_ms: delay }, "mail not sent; will retry");
    return "retrying";
  }
  await prisma.$transaction(async (tx) => {
    await tx.emailMessage.updateMany({
      where: { id: message.id, status: "sending", attempts: message.attempts },
      data: { status: "sent", sentAt: new Date(), leaseUntil: null, lastError: "" },
    });
    if (message.kind === "invitation" && message.participantId !== null) {
      // Only if the participant still exists; a later `opened` is not undone.
      await tx.participant.updateMany({
        where: { id: message.participantId, deliveryStatus: { not: "opened" } },
        data: { deliveryStatus: "success", version: { increment: 1 } },
      });
    }
  });
  logger.info(log, "mail sent");
  return "sent";
}

/**
 * Failed for good: the message; for an invitation also the participant (status, the server's reason,
 * when: the contract page and the dashboard show it until staff act) and the audit event
 * `participant.delivery_failure` (a webhook event). Not when a newer invitation has been queued
 * since (a corrected address): the failure of the old one no longer says anything.
 */
async function recordFailure(prisma: PrismaClient, message: TClaimedEmail, reason: string): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const mine = await endAttempt(tx, EMAILS, { key: message.id, attempts: message.attempts }, { status: "failed", error: reason });
    if (!mine || message.kind !== "invitation" || message.participantId === null) return;
    const failed = await tx.$queryRaw<{ id: number; email: string }[]>`
      UPDATE participants q
         SET delivery_status = 'failure', delivery_failed_at = now(), delivery_failure = ${reason}, version = version + 1
       WHERE q.id = ${message.participantId}
         AND NOT EXISTS (SELECT 1 FROM email_messages m WHERE m.participant_id = q.id AND m.kind = 'invitation' AND m.id > ${message.id})
      RETURNING q.id, q.email`;
    if (failed.length === 0 || message.contractId === null) return;
    await writeAuditEvent({
      db: tx,
      actor: { kind: "system" },
      action: "participant.delivery_failure",
      entityType: "participant",
      entityId: message.participantId,
      contractId: message.contractId,
      after: { delivery_status: "failure", email: message.toAddress, delivery_failure: reason },
    });
  });
}

/** A 5xx reply (nodemailer marks it `permanent`, and sets `responseCode`) will not change on retry. */
function isPermanent(error: unknown): boolean {
  const e = error as { permanent?: unknown; responseCode?: unknown };
  if (typeof e?.permanent === "boolean") return e.permanent;
  return typeof e?.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600;
}

/** The error for last_error and the log: the SMTP reply or the network error, never the message. */
function describeSendError(error: unknown): string {
  const e = error as { message?: unknown; code?: unknown; responseCode?: unknown };
  const message = typeof e?.message === "string" ? e.message : String(error);
  const code = typeof e?.code === "string" ? `${e.code}: ` : "";
  return cutText(`${code}${message}`.replace(/\s+/g, " "), 1000);
}

