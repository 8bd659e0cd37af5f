import type { Prisma } from "@/lib/generated/prisma/client";

/** Every column of a subscription but its secret, which is answered only when it is created. */
export const WEBHOOK_PUBLIC_SELECT = {
  id: true,
  callbackUrl: true,
  description: true,
  events: true,
  workspaceIds: true,
  active: true,
  pausedReason: true,
  pausedAt: true,
  failingSince: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.WebhookSubscriptionSelect;

export type TWebhookRow = Prisma.WebhookSubscriptionGetPayload<{ select: typeof WEBHOOK_PUBLIC_SELECT }>;

export const WEBHOOK_DELIVERY_SELECT = {
  id: true,
  subscriptionId: true,
  auditEventId: true,
  eventType: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  firstAttemptAt: true,
  lastAttemptAt: true,
  lastStatusCode: true,
  lastDurationMs: true,
  lastError: true,
  createdAt: true,
  completedAt: true,
} as const satisfies Prisma.WebhookDeliverySelect;

export type TWebhookDeliveryRow = Prisma.WebhookDeliveryGetPayload<{ select: typeof WEBHOOK_DELIVERY_SELECT }>;

/** The audit event a delivery is built from. */
export interface TWebhookEvent {
  id: number;
  action: string;
  entityType: string;
  entityId: number;
  contractId: number | null;
  workspaceId: number | null;
  createdAt: Date;
  before: unknown;
  after: unknown;
}

/** The payload's `id` and the `webhook-id` header of an audit event. */
export const webhookEventId = (auditEventId: number): string => `evt_${auditEventId}`;
