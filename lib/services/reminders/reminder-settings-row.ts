import type { TReminderSettings } from "@/lib/schemas";

/** The reminder settings' API names and their columns (the same on workspaces and contracts). */
export const REMINDER_COLUMNS = {
  first_reminder_days: "reminderFirstDays",
  reminder_interval_days: "reminderIntervalDays",
  max_reminders: "reminderMax",
  expiry_warning_days: "expiryWarningDays",
  deadline_warning_days: "deadlineWarningDays",
} as const satisfies Record<Exclude<keyof TReminderSettings, "time_zone">, string>;

export const REMINDER_SELECT = { reminderFirstDays: true, reminderIntervalDays: true, reminderMax: true, expiryWarningDays: true, deadlineWarningDays: true } as const;

export type TColumns<V> = { [K in (typeof REMINDER_COLUMNS)[keyof typeof REMINDER_COLUMNS]]: V };

/** A row's settings by their API names. */
export function reminderSettingsOf<V>(row: TColumns<V>): { [K in Exclude<keyof TReminderSettings, "time_zone">]: V } {
  return {
    first_reminder_days: row.reminderFirstDays,
    reminder_interval_days: row.reminderIntervalDays,
    max_reminders: row.reminderMax,
    expiry_warning_days: row.expiryWarningDays,
    deadline_warning_days: row.deadlineWarningDays,
  };
}
