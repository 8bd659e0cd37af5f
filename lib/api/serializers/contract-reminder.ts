import { CONTRACT_REMINDER_FIELDS, type TContractReminder } from "@/lib/schemas/lifecycle";
import type { TContractReminderRow } from "@/lib/services/lifecycle/contract-reminder-row";

import { answerValuesOf } from "./answer-values";

/** An internal reminder as `/v1/contracts/{id}/reminders` answers it: its table's fields and its recipient. */
export function serializeContractReminder(row: TContractReminderRow): TContractReminder {
  return {
    ...(answerValuesOf(CONTRACT_REMINDER_FIELDS, row) as Omit<TContractReminder, "recipient">),
    recipient: { id: row.recipient.id, name: row.recipient.name, email: row.recipient.email },
  } satisfies TContractReminder;
}
