import type { PrismaClient } from "@/lib/db";
import { LEASE_MS } from "@/lib/domain/webhooks";
import { claimDue, type TLeaseQueue } from "@/lib/services/jobs/claim-due";

/** Deliveries claimed per statement. */
export const DELIVERY_BATCH = 20;

export const DELIVERIES: TLeaseQueue = { table: "webhook_deliveries", key: "id", claimed: "sending" };

export interface TClaimed {
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

