// A contract was signed and its seal queued: wake this process's sealer (others poll).
import { jobWakeup } from "@/lib/services/jobs/job-wakeup";

const seal = jobWakeup("seal");
export const onSealQueued = seal.on;
/** Call after the transaction that queued the seal has committed. */
export const sealQueued = seal.notify;
