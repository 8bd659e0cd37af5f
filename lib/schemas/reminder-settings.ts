import { z } from "zod";

import { isTimeZone } from "@/lib/domain/calendar";

import { requestObject, typeError } from "./common";

/** The ranges reminder settings must keep to (docs/mail.md "Reminders"). */
export const REMINDER_LIMITS = {
  first_reminder_days: { min: 1, max: 60 },
  reminder_interval_days: { min: 1, max: 30 },
  max_reminders: { min: 0, max: 20 },
  expiry_warning_days: { min: 0, max: 30 },
  deadline_warning_days: { min: 0, max: 365 },
} as const;

const days = (key: keyof typeof REMINDER_LIMITS, what: string) => {
  const { min, max } = REMINDER_LIMITS[key];
  return z
    .number({ error: typeError("a whole number") })
    .int("must be a whole number")
    .min(min, `must be between ${min} and ${max}`)
    .max(max, `must be between ${min} and ${max}`)
    .meta({ description: `${what} (${min}–${max}).` });
};

const settings = {
  first_reminder_days: days("first_reminder_days", "Days after the invitation until the first reminder"),
  reminder_interval_days: days("reminder_interval_days", "Days between reminders"),
  max_reminders: days("max_reminders", "Reminders at most; 0 sends none"),
  expiry_warning_days: days("expiry_warning_days", "Days before the signing period ends to send the one warning; 0 sends none"),
  deadline_warning_days: days(
    "deadline_warning_days",
    "Days before a signed contract's notice deadline and before its end date that its owner is e-mailed (docs: lifecycle); 0 sends none",
  ),
};

/** The workspace's IANA time zone: a contract's dates begin at midnight there (docs: lifecycle). */
const ZTimeZoneSchema = z
  .string({ error: typeError("an IANA time zone such as Europe/Stockholm") })
  .refine(isTimeZone, "must be an IANA time zone such as Europe/Stockholm or UTC")
  .meta({ description: "IANA time zone of the workspace's contract dates (midnight there starts, renews and ends them; reminders go at 08:00 there).", example: "Europe/Stockholm" });

/** A workspace's defaults: every contract of it without its own settings. */
export const ZReminderSettingsSchema = z.object({ ...settings, time_zone: ZTimeZoneSchema }).meta({ id: "ReminderSettings" });

export const ZUpdateReminderSettingsRequestSchema = requestObject({
  first_reminder_days: settings.first_reminder_days.optional(),
  reminder_interval_days: settings.reminder_interval_days.optional(),
  max_reminders: settings.max_reminders.optional(),
  expiry_warning_days: settings.expiry_warning_days.optional(),
  deadline_warning_days: settings.deadline_warning_days.optional(),
  time_zone: ZTimeZoneSchema.optional().meta({ description: "Administrators only (403 `admin_only` for editors): it moves every date of the workspace's contracts." }),
}).meta({ id: "UpdateReminderSettingsRequest" });

/** A contract's own settings: null takes the workspace's default (`workspace_defaults`). */
export const ZContractReminderSettingsSchema = z
  .object({
    first_reminder_days: settings.first_reminder_days.nullable(),
    reminder_interval_days: settings.reminder_interval_days.nullable(),
    max_reminders: settings.max_reminders.nullable(),
    expiry_warning_days: settings.expiry_warning_days.nullable(),
    deadline_warning_days: settings.deadline_warning_days.nullable(),
    workspace_defaults: ZReminderSettingsSchema,
  })
  .meta({ id: "ContractReminderSettings" });

export const ZUpdateContractReminderSettingsRequestSchema = requestObject({
  first_reminder_days: settings.first_reminder_days.nullable().optional(),
  reminder_interval_days: settings.reminder_interval_days.nullable().optional(),
  max_reminders: settings.max_reminders.nullable().optional(),
  expiry_warning_days: settings.expiry_warning_days.nullable().optional(),
  deadline_warning_days: settings.deadline_warning_days.nullable().optional().meta({ description: "Also once the contract is signed (the other settings: while a draft or pending)." }),
}).meta({ id: "UpdateContractReminderSettingsRequest" });

export type TReminderSettings = z.infer<typeof ZReminderSettingsSchema>;
export type TUpdateReminderSettingsRequest = z.infer<typeof ZUpdateReminderSettingsRequestSchema>;
export type TContractReminderSettings = z.infer<typeof ZContractReminderSettingsSchema>;
export type TUpdateContractReminderSettingsRequest = z.infer<typeof ZUpdateContractReminderSettingsRequestSchema>;
