// The webhook dispatcher (docs/architecture.md "Background work"): every app instance runs both
// halves; row locks with SKIP LOCKED share the work, and nothing is lost on a crash.
//
// 1. Fan-out: the audit trail is the outbox. For each active subscription, locked FOR UPDATE SKIP
//    LOCKED, the audit events after its cursor that match its filters become deliveries (one per
//    subscription and event: ON CONFLICT DO NOTHING), in one transaction with the cursor's move.
// 2. Delivery: due deliveries are claimed with a lease (lib/services/jobs/claim-due.ts), then POSTed
//    after the commit. The outcome is written only while the claim is still ours; a dispatcher that
//    dies mid-attempt leaves the lease to run out, and the next claim sends the delivery again (at
//    least once; webhook-id de-duplicates).
import { Webhook } from "standardwebhooks";

import type { PrismaClient, Tx } from "@/lib/db";
import { queryOne } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import {
  carriedValues,
  isWebhookEventType,
  LEASE_MS,
  nextRetryDelay,
  PAUSE_AFTER_FAILED_DELIVERIES,
  PAUSE_AFTER_FAILING_MS,
  WEBHOOK_EVENT_TYPE_NAMES,
} from "@/lib/domain/webhooks";
import { logger } from "@/lib/logger";
import { claimDue, type TLeaseQueue } from "@/lib/services/jobs/claim-due";

import { checkCallbackUrl, type TResolve } from "./check-callback-url";
import { sendWebhook, type TSendResult } from "./send-webhook";
import { webhookEventId, type TWebhookEvent } from "./webhook-row";

/**
 * The `data` of an event: the changed resource as GET answers it, or what the audit trail kept when
 * it is gone. Given by the caller (it serializes, which is HTTP's business: lib/api/webhook-event-data.ts).
 */
export type TBuildWebhookData = (db: Tx, event: TWebhookEvent, origin: string) => Promise<unknown>;

/**
 * How long after an audit event's transaction began it is certainly committed or rolled back. Ids are
 * taken in one order and committed in another, so the cursor only moves past events this old; newer
 * ones are looked at again on every round (their deliveries exist already: ON CONFLICT DO NOTHING).
 * Transactions are limited to 15 s (lib/db), so 60 s leaves room for clocks that disagree.
 */
export const SETTLE_MS = 60_000;
const FAN_OUT_BATCH = 200;
const DELIVERY_BATCH = 20;

export interface TWebhookDispatcherOptions {
  db: PrismaClient;
  buildData: TBuildWebhookData;
  /** PUBLIC_URL, when set: links in payloads point there rather than at the subscription's origin. */
  publicUrl?: string | undefined;
  allowPrivate: boolean;
  /** WEBHOOK_RETRY_SCALE. */
  retryScale?: number;
  resolve?: TResolve;
  /** Replaces the HTTP request (tests that stop a dispatcher mid-attempt). */
  send?: typeof sendWebhook;
  /** Delivery attempts sent at once. */
  concurrency?: number;
}

// --- 1. Fan-out -------------------------------------------------------------------------------------

interface TLockedSubscription {
  id: number;
  events: string[];
  workspace_ids: number[];
  last_event_id: number;
  link_origin: string;
}

/** Queues deliveries for new events, subscription by subscription; answers how many were queued. */
export async function fanOutWebhookEvents({ db, buildData, publicUrl }: Pick<TWebhookDispatcherOptions, "db" | "buildData" | "publicUrl">): Promise<number> {
  const subscriptions = await db.webhookSubscription.findMany({ where: { active: true }, select: { id: true }, orderBy: { id: "asc" } });
  let queued = 0;
  for (const { id } of subscriptions) {
    queued += await db.$transaction(async (tx: Tx) => {
      const [sub] = await tx.$queryRaw<TLockedSubscription[]>`
        SELECT id, events, workspace_ids, last_event_id, link_origin FROM webhook_subscriptions
        WHERE id = ${id} AND active FOR UPDATE SKIP LOCKED`;
      // Another instance is on it (or it was paused or deleted meanwhile).
      if (!sub) return 0;
      const types = sub.events.length > 0 ? sub.events.filter(isWebhookEventType) : WEBHOOK_EVENT_TYPE_NAMES;
      const events = await tx.$queryRaw<(Omit<TWebhookEvent, "entityType" | "entityId" | "contractId" | "workspaceId" | "createdAt"> & { entity_type: string; entity_id: number; contract_id: number | null; workspace_id: number | null; created_at: Date })[]>`
        SELECT a.id, a.action, a.entity_type, a.entity_id, a.contract_id, a.workspace_id, a.created_at, a.before, a.after
        FROM audit_events a
        WHERE a.id > ${sub.last_event_id}
          AND a.action = ANY(${types}::text[])
          AND (cardinality(${sub.workspace_ids}::int[]) = 0 OR a.workspace_id = ANY(${sub.workspace_ids}::int[]))
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.subscription_id = ${sub.id} AND d.audit_event_id = a.id)
        ORDER BY a.id
        LIMIT ${FAN_OUT_BATCH}`;
      const origin = publicUrl ?? sub.link_origin;
      for (const row of events) {
        const event: TWebhookEvent = {
          id: row.id,
          action: row.action,
          entityType: row.entity_type,
          entityId: row.entity_id,
          contractId: row.contract_id,
          workspaceId: row.workspace_id,
          createdAt: row.created_at,
          before: row.before,
          after: row.after,
        };
        const payload = JSON.stringify({
          id: webhookEventId(event.id),
          type: event.action,
          created_time: event.createdAt.toISOString().replace("Z", "+00:00"),
          ...carriedValues(event.action, event.after),
          data: await buildData(tx, event, origin),
        });
        await tx.$executeRaw`
          INSERT INTO webhook_deliveries (subscription_id, audit_event_id, event_type, payload)
          VALUES (${sub.id}, ${event.id}, ${event.action}, ${payload})
          ON CONFLICT (subscription_id, audit_event_id) DO NOTHING`;
      }
      // The cursor moves past settled events only, and never past an event this batch left out.
      const full = events.length === FAN_OUT_BATCH;
      const [{ settled } = { settled: null }] = await tx.$queryRaw<{ settled: number | null }[]>`
        SELECT MAX(id)::int AS settled FROM audit_events
        WHERE id > ${sub.last_event_id} AND created_at < now() - make_interval(secs => ${SETTLE_MS / 1000})`;
      let cursor = settled ?? sub.last_event_id;
      if (full) cursor = Math.min(cursor, events[events.length - 1]!.id);
      if (cursor > sub.last_event_id) await tx.$executeRaw`UPDATE webhook_subscriptions SET last_event_id = ${cursor} WHERE id = ${sub.id}`;
      return events.length;
    });
  }
  return queued;
}

// --- 2. Delivery ------------------------------------------------------------------------------------

const DELIVERIES: TLeaseQueue = { table: "webhook_deliveries", key: "id", claimed: "sending" };

interface TClaimed {
  id: number;
  subscription_id: number;
  audit_event_id: number;
  payload: string;
  attempts: number;
  first_attempt_at: Date;
  callback_url: string;
  secret: string;
}

/**
 * Claims up to `limit` due deliveries of active subscriptions (queued and due, or sending with a lease
 * that ran out) and commits the claim: each attempt is counted and leased before it is sent.
 */
export async function claimDueWebhookDeliveries(db: PrismaClient, limit = DELIVERY_BATCH): Promise<TClaimed[]> {
  return claimDue<TClaimed>(db, DELIVERIES, {
    batchSize: limit,
    leaseMs: LEASE_MS,
    where: "EXISTS (SELECT 1 FROM webhook_subscriptions qs WHERE qs.id = q.subscription_id AND qs.active)",
    order: "q.next_attempt_at, q.id",
    set: "first_attempt_at = COALESCE(d.first_attempt_at, now()), last_attempt_at = now()",
    from: { table: "webhook_subscriptions s", on: "s.id = d.subscription_id" },
    returning: "d.id, d.subscription_id, d.audit_event_id, d.payload, d.attempts, d.first_attempt_at, s.callback_url, s.secret",
  });
}

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
export async function recordWebhookAttempt(db: PrismaClient, claimed: Pick<TClaimed, "id" | "subscription_id" | "attempts" | "first_attempt_at">, result: TSendResult, { retryScale = 1 }: { retryScale?: number } = {}): Promise<void> {
  const now = new Date();
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  await db.$transaction(async (tx: Tx) => {
    const common = { leaseUntil: null, lastStatusCode: result.statusCode, lastDurationMs: result.durationMs, lastError: result.error.slice(0, 500) };
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
                ? `Paused by the service: every delivery attempt failed since ${failingSince.toISOString()} (last: ${result.error.slice(0, 200)}).`
                : `Paused by the service: ${failures} deliveries in a row failed (last: ${result.error.slice(0, 200)}).`,
            }
          : {}),
      },
    });
    if (pause) logger.warn("webhook subscription paused after failing", { webhook_id: claimed.subscription_id });
  });
}

/**
 * Claims due deliveries and sends them, a few at a time; claims again only after a full batch (at
 * most 10 batches a round), so a retry that fell due meanwhile waits for the next round. Answers how
 * many were attempted.
 */
export async function deliverDueWebhooks(options: TWebhookDispatcherOptions): Promise<number> {
  const { db, concurrency = 8 } = options;
  let total = 0;
  for (let round = 0; round < 10; round++) {
    const claimed = await claimDueWebhookDeliveries(db, DELIVERY_BATCH);
    total += claimed.length;
    const queue = [...claimed];
    await Promise.all(
      Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const result = await attempt(next, options);
          try {
            await recordWebhookAttempt(db, next, result, { retryScale: options.retryScale ?? 1 });
          } catch (error) {
            // The lease runs out and the delivery is tried again: at least once, never lost.
            logger.error("webhook attempt could not be recorded", { delivery_id: next.id, error: String(error) });
          }
        }
      }),
    );
    if (claimed.length < DELIVERY_BATCH) break;
  }
  return total;
}

/**
 * One round of both halves. Every instance runs a round every second, and most installations have
 * no active subscription most of the time: then the round is one plain statement on the pool (no
 * ORM work), since there is nothing to fan out and nothing to deliver (deliveries go only to active
 * subscriptions).
 */
export async function dispatchWebhooks(options: TWebhookDispatcherOptions): Promise<{ queued: number; attempted: number }> {
  const probe = await queryOne<{ active: boolean }>(options.db, Prisma.sql`SELECT EXISTS (SELECT 1 FROM webhook_subscriptions WHERE active) AS active`);
  if (!probe?.active) return { queued: 0, attempted: 0 };
  const queued = await fanOutWebhookEvents(options);
  const attempted = await deliverDueWebhooks(options);
  return { queued, attempted };
}
