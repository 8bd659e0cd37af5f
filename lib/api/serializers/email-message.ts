import type { TEmailMessage } from "@/lib/schemas";
import type { TEmailMessageRow } from "@/lib/services/mail/email-message-row";
import { isoTime, isoTimeOrNull } from "./time";

export function serializeEmailMessage(row: TEmailMessageRow): TEmailMessage {
  return {
    id: row.id,
    created_time: isoTime(row.createdAt),
    kind: row.kind,
    to: row.toAddress,
    subject: row.subject,
    body: row.displayBody,
    status: row.status,
    attempts: row.attempts,
    last_error: row.lastError,
    sent_time: isoTimeOrNull(row.sentAt),
    next_attempt_time: row.status === "queued" ? isoTime(row.nextAttemptAt) : null,
    contract_id: row.contractId,
    participant_id: row.participantId,
    attachment_file_id: row.attachmentFileId,
  } satisfies TEmailMessage;
}
