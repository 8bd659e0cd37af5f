import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { assertAdmin } from "@/lib/domain/access";
import type { TPagination } from "@/lib/schemas/pagination";
import { pageArgs } from "@/lib/services/page-args";

import { WEBHOOK_PUBLIC_SELECT, type TWebhookRow } from "./webhook-row";

/** Every subscription, by id (admins only). */
export async function listWebhooks({ db, actor, page }: { db: Tx; actor: Actor; page: TPagination }): Promise<{ count: number; rows: TWebhookRow[] }> {
  assertAdmin(actor);
  const [count, rows] = await Promise.all([
    db.webhookSubscription.count(),
    db.webhookSubscription.findMany({ select: WEBHOOK_PUBLIC_SELECT, orderBy: { id: "asc" }, ...pageArgs(page) }),
  ]);
  return { count, rows };
}
