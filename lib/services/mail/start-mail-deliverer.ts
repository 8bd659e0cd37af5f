import type { Transporter } from "nodemailer";

import type { PrismaClient } from "@/lib/db";
import { runPeriodically, type TPeriodicJob } from "@/lib/services/jobs/run-periodically";
import { EMAIL_BATCH_SIZE } from "@/lib/services/mail/claim-due-emails";
import { deliverDueEmails, type TDeliverOptions } from "@/lib/services/mail/deliver-email";
import { onMailQueued } from "@/lib/services/mail/mail-wakeup";

export interface TStartMailDelivererOptions extends Omit<TDeliverOptions, "prisma" | "transport" | "shouldStop"> {
  /** The database, opened on first use. */
  getPrisma: () => Promise<PrismaClient>;
  transport: Pick<Transporter, "sendMail"> & { close?: () => void };
  intervalMs: number;
}

/**
 * Delivers every `intervalMs`, and at once when this process queues mail (mail-wakeup.ts), one run
 * at a time (run-periodically.ts). A run goes on claiming while it fills whole batches; stopping
 * lets it hand back what it has not sent, then closes the transport.
 */
export function startMailDeliverer(options: TStartMailDelivererOptions): TPeriodicJob {
  const { getPrisma, intervalMs, transport, ...deliverOptions } = options;
  const batchSize = deliverOptions.batchSize ?? EMAIL_BATCH_SIZE;
  const job = runPeriodically(
    "mail delivery",
    intervalMs,
    async (stopping) => {
      const prisma = await getPrisma();
      for (;;) {
        const run = await deliverDueEmails({ ...deliverOptions, prisma, transport, shouldStop: stopping });
        if (stopping() || run.claimed < batchSize) break;
      }
    },
    { wakeOn: onMailQueued },
  );
  return {
    ...job,
    async stop() {
      await job.stop();
      transport.close?.();
    },
  };
}
