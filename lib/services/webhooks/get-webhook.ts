import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertAdmin } from "@/lib/domain/permissions";
import type { TPagination } from "@/lib/schemas/pagination";
import { pageArgs } from "@/lib/services/page-args";

import { WEBHOOK_PUBLIC_SELECT, type TWebhookRow } from "./webhook-row";

/** One subscription (admins only: 403; else 404 when there is none). */
export async function getWebhook({ db, actor, webhookId }: { db: Tx; actor: Actor; webhookId: number }): Promise<TWebhookRow> {
  assertAdmin(actor);
  const row = await db.webhookSubscription.findUnique({ where: { id: webhookId }, select: WEBHOOK_PUBLIC_SELECT });
  if (!row) throw new DomainError("resource_not_found", `Webhook ${webhookId} does not exist.`);
  return row;
}

/** Every subscription, by id (admins only). */
export async function listWebhooks({ db, actor, page }: { db: Tx; actor: Actor; page: TPagination }): Promise<{ count: number; rows: TWebhookRow[] }> {
  assertAdmin(actor);
  const [count, rows] = await Promise.all([
    db.webhookSubscription.count(),
    db.webhookSubscription.findMany({ select: WEBHOOK_PUBLIC_SELECT, orderBy: { id: "asc" }, ...pageArgs(page) }),
  ]);
  return { count, rows };
}
