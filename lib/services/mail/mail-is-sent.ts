import { env } from "@/lib/env";

/** Is outgoing mail sent (SMTP_URL set), or kept for the Outbox page? */
export function mailIsSent(): boolean {
  return env().SMTP_URL !== undefined;
}
