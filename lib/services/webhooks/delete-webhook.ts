import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertAdmin } from "@/lib/domain/access";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";

/**
 * Deletes a subscription with its deliveries (admins only). The row is locked first, so a fan-out
 * under way for it finishes before; an attempt already claimed may still go out once.
 */
export async function deleteWebhook({ db, actor, webhookId, requestId }: { db: PrismaClient; actor: Actor; webhookId: number; requestId?: string }): Promise<void> {
  assertAdmin(actor);
  await db.$transaction(async (tx: Tx) => {
    const [row] = await tx.$queryRaw<{ callback_url: string; description: string }[]>`
      SELECT callback_url, description FROM webhook_subscriptions WHERE id = ${webhookId} FOR UPDATE`;
    if (!row) throw new DomainError("resource_not_found", `Webhook ${webhookId} does not exist.`);
    await tx.webhookSubscription.delete({ where: { id: webhookId } });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "webhook.delete",
      entityType: "webhook",
      entityId: webhookId,
      requestId,
      before: { callback_url: row.callback_url, description: row.description },
    });
  });
}
