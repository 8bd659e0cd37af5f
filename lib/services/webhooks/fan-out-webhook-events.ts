// Fan-out (dispatch-webhooks.ts, step 1): the audit trail is the outbox. For each active subscription,
// locked FOR UPDATE SKIP LOCKED, the audit events after its cursor that match its filters become
// deliveries (one per subscription and event: ON CONFLICT DO NOTHING), in one transaction with the
// cursor's move.
import type { Tx } from "@/lib/db";
import { carriedValues, isWebhookEventType, WEBHOOK_EVENT_TYPE_NAMES } from "@/lib/domain/webhooks";

import type { TWebhookDispatcherOptions } from "./webhook-dispatcher-options";
import { webhookEventId, type TWebhookEvent } from "./webhook-row";

/**
 * How long after an audit event's transaction began it is certainly committed or rolled back. Ids are
 * taken in one order and committed in another, so the cursor only moves past events this old; newer
 * ones are looked at again on every round (their deliveries exist already: ON CONFLICT DO NOTHING).
 * Transactions are limited to 15 s (lib/db), so 60 s leaves room for clocks that disagree.
 */
export const SETTLE_MS = 60_000;
const FAN_OUT_BATCH = 200;

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
