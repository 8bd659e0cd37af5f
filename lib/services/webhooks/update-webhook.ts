import type { PrismaClient, Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { assertAdmin } from "@/lib/domain/access";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";

import { WEBHOOK_PUBLIC_SELECT, type TWebhookRow } from "./webhook-row";
import { now as clockNow } from "@/lib/clock";

export const PAUSED_BY_ADMIN = "Paused by an administrator.";

/**
 * Pauses (`active: false`) or resumes a subscription (admins only). Resuming clears the failure
 * bookkeeping, so a subscription the service paused gets a fresh start. Setting what it already is
 * changes nothing.
 */
export async function updateWebhook({ db, actor, webhookId, active, requestId }: { db: PrismaClient; actor: Actor; webhookId: number; active: boolean; requestId?: string }): Promise<TWebhookRow> {
  assertAdmin(actor);
  return db.$transaction(async (tx: Tx) => {
    const [row] = await tx.$queryRaw<{ active: boolean; paused_reason: string }[]>`
      SELECT active, paused_reason FROM webhook_subscriptions WHERE id = ${webhookId} FOR UPDATE`;
    if (!row) throw new DomainError("resource_not_found", `Webhook ${webhookId} does not exist.`);
    if (row.active === active) return tx.webhookSubscription.findUniqueOrThrow({ where: { id: webhookId }, select: WEBHOOK_PUBLIC_SELECT });
    const now = clockNow();
    const updated = await tx.webhookSubscription.update({
      where: { id: webhookId },
      data: active
        ? { active: true, pausedReason: "", pausedAt: null, failingSince: null, consecutiveFailures: 0, updatedAt: now }
        : { active: false, pausedReason: PAUSED_BY_ADMIN, pausedAt: now, updatedAt: now },
      select: WEBHOOK_PUBLIC_SELECT,
    });
    await writeAuditEvent({
      db: tx,
      actor,
      action: active ? "webhook.resume" : "webhook.pause",
      entityType: "webhook",
      entityId: webhookId,
      requestId,
      before: { active: row.active, paused_reason: row.paused_reason },
      after: { active: updated.active, paused_reason: updated.pausedReason },
    });
    return updated;
  });
}
