import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertAdmin } from "@/lib/domain/access";

import { WEBHOOK_PUBLIC_SELECT, type TWebhookRow } from "./webhook-row";

/** One subscription (admins only: 403; else 404 when there is none). */
export async function getWebhook({ db, actor, webhookId }: { db: Tx; actor: Actor; webhookId: number }): Promise<TWebhookRow> {
  assertAdmin(actor);
  const row = await db.webhookSubscription.findUnique({ where: { id: webhookId }, select: WEBHOOK_PUBLIC_SELECT });
  if (!row) throw new DomainError("resource_not_found", `Webhook ${webhookId} does not exist.`);
  return row;
}
