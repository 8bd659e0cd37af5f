import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import type { TPagination } from "@/lib/schemas/pagination";
import { pageArgs } from "@/lib/services/page-args";

import { getWebhook } from "./get-webhook";
import { WEBHOOK_DELIVERY_SELECT, type TWebhookDeliveryRow } from "./webhook-row";

/** A subscription's deliveries, newest first (admins only; 404 for an unknown subscription). */
export async function listWebhookDeliveries({ db, actor, webhookId, page }: { db: Tx; actor: Actor; webhookId: number; page: TPagination }): Promise<{ count: number; rows: TWebhookDeliveryRow[] }> {
  await getWebhook({ db, actor, webhookId });
  const where = { subscriptionId: webhookId };
  const [count, rows] = await Promise.all([
    db.webhookDelivery.count({ where }),
    db.webhookDelivery.findMany({ where, select: WEBHOOK_DELIVERY_SELECT, orderBy: { id: "desc" }, ...pageArgs(page) }),
  ]);
  return { count, rows };
}
