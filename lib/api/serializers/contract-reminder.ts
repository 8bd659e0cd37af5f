import type { TContractReminder } from "@/lib/schemas/lifecycle";
import type { TContractReminderRow } from "@/lib/services/lifecycle/contract-reminder-row";

import { isoTime, isoTimeOrNull } from "./time";

/** An internal reminder as `/v1/contracts/{id}/reminders` answers it. */
export function serializeContractReminder(row: TContractReminderRow): TContractReminder {
  return {
    id: row.id,
    date: row.remindOn.toISOString().slice(0, 10),
    note: row.note,
    recipient: { id: row.recipient.id, name: row.recipient.name, email: row.recipient.email },
    created_by_id: row.createdById,
    due_time: isoTime(row.dueAt),
    sent_time: isoTimeOrNull(row.sentAt),
    created_time: isoTime(row.createdAt),
  } satisfies TContractReminder;
}
