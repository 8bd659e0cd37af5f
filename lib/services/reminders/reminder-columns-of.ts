import type { TReminderSettings } from "@/lib/schemas";
import { REMINDER_COLUMNS, type TColumns } from "@/lib/services/reminders/reminder-settings-row";

/** The columns to write for the attributes a request gives (left out: unchanged). */
export function reminderColumnsOf<V>(request: Partial<{ [K in Exclude<keyof TReminderSettings, "time_zone">]: V }>): Partial<TColumns<V>> {
  const data: Partial<TColumns<V>> = {};
  for (const [key, column] of Object.entries(REMINDER_COLUMNS) as [keyof typeof REMINDER_COLUMNS, keyof TColumns<V>][]) {
    if (request[key] !== undefined) data[column] = request[key];
  }
  return data;
}
