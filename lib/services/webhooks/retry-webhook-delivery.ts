import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertAdmin } from "@/lib/domain/access";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";

import { WEBHOOK_DELIVERY_SELECT, type TWebhookDeliveryRow } from "./webhook-row";

/**
 * Queues a delivery again, due now, with the same event (id and body); its give-up window starts
 * over. 409 while an attempt holds a live lease.
 */
export async function retryWebhookDelivery({ db, actor, webhookId, deliveryId, requestId }: { db: PrismaClient; actor: Actor; webhookId: number; deliveryId: number; requestId?: string }): Promise<TWebhookDeliveryRow> {
  assertAdmin(actor);
  return db.$transaction(async (tx: Tx) => {
    const [row] = await tx.$queryRaw<{ status: string; leased: boolean }[]>`
      SELECT status::text AS status, (lease_until IS NOT NULL AND lease_until > now()) AS leased
      FROM webhook_deliveries WHERE id = ${deliveryId} AND subscription_id = ${webhookId} FOR UPDATE`;
    if (!row) throw new DomainError("resource_not_found", `Webhook ${webhookId} has no delivery ${deliveryId}.`);
    if (row.status === "sending" && row.leased) throw new DomainError("webhook_delivery_in_progress", `Delivery ${deliveryId} is being sent right now.`);
    const updated = await tx.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: "queued", nextAttemptAt: new Date(), leaseUntil: null, firstAttemptAt: null, completedAt: null },
      select: WEBHOOK_DELIVERY_SELECT,
    });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "webhook.delivery_retry",
      entityType: "webhook",
      entityId: webhookId,
      requestId,
      before: { delivery_id: deliveryId, status: row.status },
      after: { delivery_id: deliveryId, status: "queued" },
    });
    return updated;
  });
}
