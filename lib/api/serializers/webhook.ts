import { absoluteUrl } from "@/lib/http/links";
import type { TWebhookEventType } from "@/lib/domain/webhooks";
import type { TWebhook, TWebhookDelivery } from "@/lib/schemas";
import { webhookEventId, type TWebhookDeliveryRow, type TWebhookRow } from "@/lib/services/webhooks/webhook-row";

import { isoTime, isoTimeOrNull } from "./time";

/** A subscription, never its secret (docs/events.md "Webhooks"). */
export function serializeWebhook(row: TWebhookRow, { origin }: { origin: string }): TWebhook {
  const self = `/v1/webhooks/${row.id}`;
  return {
    id: row.id,
    callback_url: row.callbackUrl,
    description: row.description,
    events: row.events as TWebhookEventType[],
    workspace_ids: row.workspaceIds,
    active: row.active,
    paused_reason: row.pausedReason,
    paused_time: isoTimeOrNull(row.pausedAt),
    failing_since_time: isoTimeOrNull(row.failingSince),
    created_time: isoTime(row.createdAt),
    updated_time: isoTime(row.updatedAt),
    _links: { self: { href: absoluteUrl(origin, self) }, deliveries: { href: absoluteUrl(origin, `${self}/deliveries`) } },
  } satisfies TWebhook;
}

export function serializeWebhookDelivery(row: TWebhookDeliveryRow): TWebhookDelivery {
  const open = row.status === "queued" || row.status === "sending";
  return {
    id: row.id,
    event_id: webhookEventId(row.auditEventId),
    event_type: row.eventType as TWebhookEventType,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_duration_ms: row.lastDurationMs,
    last_error: row.lastError,
    next_attempt_time: open ? isoTime(row.nextAttemptAt) : null,
    first_attempt_time: isoTimeOrNull(row.firstAttemptAt),
    last_attempt_time: isoTimeOrNull(row.lastAttemptAt),
    created_time: isoTime(row.createdAt),
    completed_time: isoTimeOrNull(row.completedAt),
  } satisfies TWebhookDelivery;
}
