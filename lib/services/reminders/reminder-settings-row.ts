import type { TReminderSettings } from "@/lib/schemas";

/** The reminder settings' API names and their columns (the same on workspaces and contracts). */
export const REMINDER_COLUMNS = {
  first_reminder_days: "reminderFirstDays",
  reminder_interval_days: "reminderIntervalDays",
  max_reminders: "reminderMax",
  expiry_warning_days: "expiryWarningDays",
} as const satisfies Record<keyof TReminderSettings, string>;

export const REMINDER_SELECT = { reminderFirstDays: true, reminderIntervalDays: true, reminderMax: true, expiryWarningDays: true } as const;

type TColumns<V> = { [K in (typeof REMINDER_COLUMNS)[keyof typeof REMINDER_COLUMNS]]: V };

/** A row's settings by their API names. */
export function reminderSettingsOf<V>(row: TColumns<V>): { [K in keyof TReminderSettings]: V } {
  return {
    first_reminder_days: row.reminderFirstDays,
    reminder_interval_days: row.reminderIntervalDays,
    max_reminders: row.reminderMax,
    expiry_warning_days: row.expiryWarningDays,
  };
}

/** The columns to write for the attributes a request gives (left out: unchanged). */
export function reminderColumnsOf<V>(request: Partial<{ [K in keyof TReminderSettings]: V }>): Partial<TColumns<V>> {
  const data: Partial<TColumns<V>> = {};
  for (const [key, column] of Object.entries(REMINDER_COLUMNS) as [keyof TReminderSettings, keyof TColumns<V>][]) {
    if (request[key] !== undefined) data[column] = request[key];
  }
  return data;
}
