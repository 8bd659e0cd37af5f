// New mail was committed: wake this process's deliverer (others poll, MAIL_POLL_INTERVAL_MS).
import { jobWakeup } from "@/lib/services/jobs/job-wakeup";

const mail = jobWakeup("mail");
export const onMailQueued = mail.on;
/** Call after the transaction that queued mail has committed. */
export const mailQueued = mail.notify;
