// Delivery (dispatch-webhooks.ts, step 2): due deliveries are claimed with a lease
// (claim-due-webhook-deliveries.ts), then POSTed after the commit. The outcome is written only while
// the claim is still ours; a dispatcher that dies mid-attempt leaves the lease to run out, and the
// next claim sends the delivery again (at least once; webhook-id de-duplicates).
import { Webhook } from "standardwebhooks";

import type { PrismaClient, Tx } from "@/lib/db";
import { nextRetryDelay, PAUSE_AFTER_FAILED_DELIVERIES, PAUSE_AFTER_FAILING_MS } from "@/lib/domain/webhooks";
import { logger } from "@/lib/logger";
import { releaseClaims } from "@/lib/services/jobs/release-claims";

import { checkCallbackUrl } from "./check-callback-url";
import { claimDueWebhookDeliveries, DELIVERIES, type TClaimed } from "./claim-due-webhook-deliveries";
import { sendWebhook, type TSendResult } from "./send-webhook";
import { WebhookAttempts } from "./webhook-attempts";
import type { TWebhookDispatcherOptions } from "./webhook-dispatcher-options";
import { webhookEventId } from "./webhook-row";
import { cutText } from "@/lib/domain/cut-text";

/** Signs and POSTs one claimed delivery; answers the outcome (never throws). */
async function attempt(claimed: TClaimed, { allowPrivate, resolve, send = sendWebhook }: Pick<TWebhookDispatcherOptions, "allowPrivate" | "resolve" | "send">): Promise<TSendResult> {
  let target: Awaited<ReturnType<typeof checkCallbackUrl>>;
  try {
    // Again at every attempt: the name may point elsewhere now (DNS rebinding).
    target = await checkCallbackUrl(claimed.callback_url, { allowPrivate, ...(resolve ? { resolve } : {}) });
  } catch (error) {
    return { statusCode: null, durationMs: 0, error: error instanceof Error ? error.message : String(error) };
  }
  const id = webhookEventId(claimed.audit_event_id);
  const timestamp = new Date();
  const signature = new Webhook(claimed.secret).sign(id, timestamp, claimed.payload);
  return send({
    url: target.url,
    address: target.addresses[0]!,
    headers: { "webhook-id": id, "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)), "webhook-signature": signature },
    body: claimed.payload,
  });
}

/** Writes an attempt's outcome, if the claim is still ours (same attempt number, still sending). */
async function recordWebhookAttempt(db: PrismaClient, claimed: Pick<TClaimed, "id" | "subscription_id" | "attempts" | "first_attempt_at">, result: TSendResult, { retryScale = 1 }: { retryScale?: number } = {}): Promise<void> {
  const now = new Date();
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  await db.$transaction(async (tx: Tx) => {
    const common = { leaseUntil: null, lastStatusCode: result.statusCode, lastDurationMs: result.durationMs, lastError: cutText(result.error, 500) };
    const mine = { id: claimed.id, attempts: claimed.attempts, status: "sending" as const };
    if (ok) {
      const { count } = await tx.webhookDelivery.updateMany({ where: mine, data: { ...common, status: "succeeded", completedAt: now } });
      if (count === 1) await tx.webhookSubscription.updateMany({ where: { id: claimed.subscription_id }, data: { failingSince: null, consecutiveFailures: 0 } });
      return;
    }
    const delay = nextRetryDelay(claimed.attempts, { firstAttemptAt: claimed.first_attempt_at, now, scale: retryScale });
    const { count } = await tx.webhookDelivery.updateMany({
      where: mine,
      data: delay === null ? { ...common, status: "failed", completedAt: now } : { ...common, status: "queued", nextAttemptAt: new Date(now.getTime() + delay) },
    });
    if (count !== 1) return;
    // The subscription's failure bookkeeping, under its row lock; paused once failing for days.
    const [sub] = await tx.$queryRaw<{ active: boolean; failing_since: Date | null; consecutive_failures: number }[]>`
      SELECT active, failing_since, consecutive_failures FROM webhook_subscriptions WHERE id = ${claimed.subscription_id} FOR UPDATE`;
    if (!sub) return;
    const failingSince = sub.failing_since ?? claimed.first_attempt_at;
    const failures = sub.consecutive_failures + (delay === null ? 1 : 0);
    const failingTooLong = now.getTime() - failingSince.getTime() >= PAUSE_AFTER_FAILING_MS * retryScale;
    const tooMany = failures >= PAUSE_AFTER_FAILED_DELIVERIES;
    const pause = sub.active && (failingTooLong || tooMany);
    await tx.webhookSubscription.update({
      where: { id: claimed.subscription_id },
      data: {
        failingSince,
        consecutiveFailures: failures,
        ...(pause
          ? {
              active: false,
              pausedAt: now,
              updatedAt: now,
              pausedReason: failingTooLong
                ? `Paused by the service: every delivery attempt failed since ${failingSince.toISOString()} (last: ${cutText(result.error, 200)}).`
                : `Paused by the service: ${failures} deliveries in a row failed (last: ${cutText(result.error, 200)}).`,
            }
          : {}),
      },
    });
    if (pause) logger.warn({ webhook_id: claimed.subscription_id }, "webhook subscription paused after failing");
  });
}

/** Free slots a claim waits for (fewer when `concurrency` is smaller). */
const CLAIM_AT_LEAST = 4;

/** Deliveries one run claims at most (then the next run, a second later or at once when woken, goes on). */
const DELIVERIES_PER_RUN = 200;

/** Sends one claimed delivery and writes its outcome (never throws). */
async function attemptAndRecord(claimed: TClaimed, options: TWebhookDispatcherOptions): Promise<void> {
  // A throw of the attempt's own (a secret the signing library refuses) is a failed attempt, retried.
  const result = await attempt(claimed, options).catch((error: unknown): TSendResult => ({ statusCode: null, durationMs: 0, error: String(error) }));
  try {
    await recordWebhookAttempt(options.db, claimed, result, { retryScale: options.retryScale ?? 1 });
  } catch (error) {
    // The lease runs out and the delivery is tried again: at least once, never lost.
    logger.error({ delivery_id: claimed.id, error: String(error) }, "webhook attempt could not be recorded");
  }
}

/**
 * Claims due deliveries as slots free up (`concurrency` attempts at once, counting those earlier
 * runs started that are still under way in `options.attempts`; a claim once CLAIM_AT_LEAST are
 * free) and starts each at once, until none is due or the run has claimed DELIVERIES_PER_RUN. It
 * does not wait for the attempts it started unless it was given no tracker. Once `shouldStop` says so, it claims no more and hands back a
 * claim it has not started (the attempts under way finish). Answers how many it started.
 */
export async function deliverDueWebhooks(options: TWebhookDispatcherOptions): Promise<number> {
  const { db, concurrency = 8, shouldStop = () => false } = options;
  const attempts = options.attempts ?? new WebhookAttempts();
  // Claims wait for a few free slots (not one each time an attempt ends): a claim statement reads
  // past the due rows of paused subscriptions, and one a slot made a backlog's run half as fast.
  const claimAtLeast = Math.min(CLAIM_AT_LEAST, concurrency);
  let total = 0;
  while (total < DELIVERIES_PER_RUN) {
    await attempts.below(concurrency - claimAtLeast + 1);
    if (shouldStop()) break;
    const room = Math.min(concurrency - attempts.size, DELIVERIES_PER_RUN - total);
    const claimed = await claimDueWebhookDeliveries(db, room);
    if (shouldStop()) {
      await releaseClaims(db, DELIVERIES, claimed.map((d) => ({ key: d.id, attempts: d.attempts })));
      break;
    }
    for (const d of claimed) attempts.start(() => attemptAndRecord(d, options));
    total += claimed.length;
    if (claimed.length < room) break;
  }
  if (options.attempts === undefined) await attempts.settled();
  return total;
}
