// The webhook dispatcher (docs/architecture.md "Background work"): every app instance runs both
// halves, fan-out (fan-out-webhook-events.ts) then delivery (deliver-due-webhooks.ts); row locks
// with SKIP LOCKED share the work, and nothing is lost on a crash.
import { Prisma } from "@/lib/generated/prisma/client";
import { queryOne } from "@/lib/db/query";

import { deliverDueWebhooks } from "./deliver-due-webhooks";
import { fanOutWebhookEvents } from "./fan-out-webhook-events";
import type { TWebhookDispatcherOptions } from "./webhook-dispatcher-options";

/**
 * One round of both halves. Every instance runs a round every second, and most installations have
 * no active subscription most of the time: then the round is one plain statement on the pool (no
 * ORM work), since there is nothing to fan out and nothing to deliver (deliveries go only to active
 * subscriptions).
 */
export async function dispatchWebhooks(options: TWebhookDispatcherOptions): Promise<{ queued: number; attempted: number }> {
  const probe = await queryOne<{ active: boolean }>(options.db, Prisma.sql`SELECT EXISTS (SELECT 1 FROM webhook_subscriptions WHERE active) AS active`);
  if (!probe?.active) return { queued: 0, attempted: 0 };
  const queued = await fanOutWebhookEvents(options);
  const attempted = await deliverDueWebhooks(options);
  return { queued, attempted };
}
