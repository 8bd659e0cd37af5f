import type { PrismaClient, Tx } from "@/lib/db";

import type { TResolve } from "./check-callback-url";
import type { WebhookAttempts } from "./webhook-attempts";
import type { sendWebhook } from "./send-webhook";
import type { TWebhookEvent } from "./webhook-row";

/**
 * The `data` of an event: the changed resource as GET answers it, or what the audit trail kept when
 * it is gone. Given by the caller (it serializes, which is HTTP's business: lib/api/webhook-event-data.ts).
 */
export type TBuildWebhookData = (db: Tx, event: TWebhookEvent, origin: string) => Promise<unknown>;

export interface TWebhookDispatcherOptions {
  db: PrismaClient;
  buildData: TBuildWebhookData;
  /** PUBLIC_URL, when set: links in payloads point there rather than at the subscription's origin. */
  publicUrl?: string | undefined;
  allowPrivate: boolean;
  /** WEBHOOK_RETRY_SCALE. */
  retryScale?: number;
  resolve?: TResolve;
  /** Replaces the HTTP request (tests that stop a dispatcher mid-attempt). */
  send?: typeof sendWebhook;
  /** Delivery attempts sent at once. */
  concurrency?: number;
  /**
   * The process's attempts under way (webhook-attempts.ts): a run then
   * returns without waiting for the attempts it started, and the next one counts them. Without it,
   * a run waits for its own.
   */
  attempts?: WebhookAttempts;
  /** Checked before each claim and each attempt: when true, the run ends (deliver-due-webhooks.ts). */
  shouldStop?: () => boolean;
}
