// The work each app instance does besides answering requests (docs/architecture.md "Background
// work"). Every job is safe with several instances on one database and loses nothing on a crash.
import type { PrismaClient } from "@/lib/db";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { expireOverdueContracts } from "@/lib/services/contracts/expire-overdue-contracts";
import { foldAllContractCounts } from "@/lib/services/contracts/fold-all-contract-counts";
import { advanceDueLifecycles } from "@/lib/services/lifecycle/advance-due-lifecycles";
import { sendDueContractReminders } from "@/lib/services/lifecycle/send-due-contract-reminders";
import { createSmtpTransport } from "@/lib/services/mail/create-smtp-transport";
import { startMailDeliverer } from "@/lib/services/mail/start-mail-deliverer";
import { sendDueReminders } from "@/lib/services/reminders/send-due-reminders";
import { sealDueContracts } from "@/lib/services/seal/seal-contracts";
import { onSealQueued } from "@/lib/services/seal/seal-wakeup";
import { dispatchWebhooks } from "@/lib/services/webhooks/dispatch-webhooks";
import { WebhookAttempts } from "@/lib/services/webhooks/webhook-attempts";
import { type TBuildWebhookData } from "@/lib/services/webhooks/webhook-dispatcher-options";

import { runningJobs as g } from "./running-jobs";
import { runPeriodically, type TPeriodicJob } from "./run-periodically";

/** How often each instance looks for seals another instance queued or a crashed one left. */
const SEAL_POLL_INTERVAL_MS = 5_000;


/**
 * Webhook delivery (lib/services/webhooks): each run fans out and starts what is due; the attempts
 * outlive it (a slow receiver holds only its own), and stopping waits for them too.
 */
function webhookDispatch(database: () => Promise<PrismaClient>, buildWebhookData: TBuildWebhookData): TPeriodicJob {
  const e = env();
  const attempts = new WebhookAttempts();
  const job = runPeriodically("webhook dispatch", e.WEBHOOK_POLL_INTERVAL_MS, async (stopping) => {
    await dispatchWebhooks({
      db: await database(),
      buildData: buildWebhookData,
      publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ""),
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE_URLS === "1",
      retryScale: e.WEBHOOK_RETRY_SCALE,
      shouldStop: stopping,
      attempts,
    });
  });
  return {
    kick: job.kick,
    stop: () => job.stop().then(() => attempts.settled()),
    idle: () => job.idle().then(() => attempts.settled()),
  };
}

/**
 * Starts the jobs once per process (dev reloads keep them). Each run asks for the database, so a
 * database that opens late (or reopens) only delays them.
 */
export function startBackgroundJobs(database: () => Promise<PrismaClient>, { buildWebhookData }: { buildWebhookData?: TBuildWebhookData } = {}): void {
  if (g.__contractsJobs || env().BACKGROUND_JOBS === "off") return;
  const { SMTP_URL, MAIL_FROM, MAIL_POLL_INTERVAL_MS, OVERDUE_CHECK_INTERVAL_MS, COUNT_FOLD_INTERVAL_MS } = env();
  const e = env();
  g.__contractsJobs = [
    runPeriodically("overdue check", OVERDUE_CHECK_INTERVAL_MS, async (stopping) => {
      const ids = await expireOverdueContracts({ db: await database(), stopping });
      if (ids.length > 0) logger.info({ contract_ids: ids }, "contracts became overdue");
    }),
    runPeriodically("reminders", e.REMINDER_CHECK_INTERVAL_MS, async (stopping) => {
      const run = await sendDueReminders({ db: await database(), stopping });
      if (run.reminders + run.warnings > 0) logger.info({ ...run }, "reminders queued");
    }),
    // The contract's life after signing (docs/lifecycle.md "The job"): its changes and the owner's
    // warnings, then the internal reminders; each exactly once across instances.
    runPeriodically("lifecycle", e.LIFECYCLE_CHECK_INTERVAL_MS, async (stopping) => {
      const db = await database();
      const linkOrigin = e.PUBLIC_URL?.replace(/\/+$/, "") ?? "";
      const run = await advanceDueLifecycles({ db, linkOrigin, stopping });
      if (run.changes + run.warnings > 0) logger.info({ ...run }, "contract lifecycles advanced");
      const reminders = await sendDueContractReminders({ db, linkOrigin, stopping });
      if (reminders > 0) logger.info({ reminders }, "internal reminders sent");
    }),
    runPeriodically("contract count fold", COUNT_FOLD_INTERVAL_MS, async (stopping) => {
      await foldAllContractCounts({ db: await database(), stopping });
    }),
    ...(buildWebhookData ? [webhookDispatch(database, buildWebhookData)] : []),
  ];
  // The sealed copies (lib/services/seal): at once when this process queued one, else on each poll.
  g.__contractsJobs.push(
    runPeriodically(
      "sealing",
      SEAL_POLL_INTERVAL_MS,
      async (stopping) => {
        const db = await database();
        // Each batch only while the process is not stopping (the database may have opened after a SIGTERM).
        while (!stopping()) {
          const run = await sealDueContracts({ db, publicUrl: e.PUBLIC_URL?.replace(/\/+$/, "") });
          if (run.claimed === 0) break;
        }
      },
      { wakeOn: onSealQueued },
    ),
  );
  // Mail (docs/mail.md): only with an SMTP server; without one, mail is kept for the Outbox.
  if (SMTP_URL) {
    g.__contractsJobs.push(startMailDeliverer({ getPrisma: database, transport: createSmtpTransport(SMTP_URL), from: MAIL_FROM, intervalMs: MAIL_POLL_INTERVAL_MS }));
  }
}
