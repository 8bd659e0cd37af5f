// A contract's term and its life after signing (docs/lifecycle.md): the shapes of the duration
// settings, the staff actions after signing (notice, termination, internal reminders), and the
// field schemas the contract's table (lib/schemas/contract.ts) answers them with.
import { z } from "zod";

import { isCalendarDate, parsePeriod } from "@/lib/domain/calendar";
import { DURATION_TYPES, LIFECYCLE_STATES, LIFECYCLE_SUB_STATES } from "@/lib/domain/lifecycle";

import { ZIdParamSchema, ZIdSchema, ZTimestampSchema, hasTextControlCharacters, oneOf, requestObject, typeError } from "./common";
import { answerShapeOf, fieldTable } from "./field-table";

/** A calendar date, `YYYY-MM-DD`, with no time of day. */
export const ZDateSchema = z
  .string({ error: typeError("a date such as 2027-01-31") })
  .refine(isCalendarDate, "must be a real date written YYYY-MM-DD, e.g. 2027-01-31")
  .meta({ format: "date", example: "2027-01-31" });

/** A period in ISO 8601 with one unit: days, weeks, months or years. */
export const ZPeriodSchema = z
  .string({ error: typeError("a period such as P1Y") })
  .refine((text) => parsePeriod(text) !== null, "must be a period such as P30D, P2W, P6M or P1Y (one unit, at most 100 years)")
  .meta({ description: "ISO 8601 period with one unit: `P30D`, `P2W`, `P6M`, `P1Y`.", example: "P1Y" });

export const ZDurationSchema = oneOf(DURATION_TYPES).meta({
  id: "Duration",
  description:
    "`none`: no end (only a start date). `single_period`: ends after one period (`end_date` or `initial_duration`). " +
    "`recurring`: renews every `renewal_period` unless notice is given by the deadline. `recurring_with_initial`: a first " +
    "period (`end_date` or `initial_duration`), then renewals of `renewal_period`.",
});
export const ZLifecycleStateSchema = oneOf(LIFECYCLE_STATES).meta({ id: "LifecycleState" });
export const ZLifecycleSubStateSchema = oneOf(LIFECYCLE_SUB_STATES).meta({ id: "LifecycleSubState" });

// --- Requests ---

/**
 * The duration settings a request gives: on creation (left out: the template's defaults) and by
 * `PUT …/lifecycle_settings` while a draft (left out: unchanged). null clears a setting.
 */
export const ZLifecycleSettingsRequestSchema = requestObject({
  duration: ZDurationSchema.optional(),
  start_date: ZDateSchema.nullable().optional().meta({ description: "The first day; null: the day the contract is signed." }),
  end_date: ZDateSchema.nullable().optional().meta({ description: "The last day of a single period, or of the initial period." }),
  initial_duration: ZPeriodSchema.nullable().optional().meta({ description: "Instead of `end_date`: how long that period lasts." }),
  renewal_period: ZPeriodSchema.nullable().optional().meta({ description: "How long each renewed period lasts." }),
  notice_period: ZPeriodSchema.nullable().optional().meta({ description: "How long before a period ends notice must be given for the contract to end then." }),
}).meta({ id: "LifecycleSettingsRequest" });

/** Ends the contract now (no `date`), or at the end of `date`. */
export const ZTerminateContractRequestSchema = requestObject({
  date: ZDateSchema.optional().meta({ description: "The last day the contract is in force; today or later, and not before a start date still ahead. Left out: it ends now." }),
}).meta({ id: "TerminateContractRequest" });

export const ZCreateContractReminderRequestSchema = requestObject({
  date: ZDateSchema.meta({ description: "The day the reminder is e-mailed (08:00 in the workspace's time zone); today or later." }),
  note: z
    .string({ error: typeError("a string") })
    .trim()
    .overwrite((text) => text.replace(/\r\n?/g, "\n"))
    .min(1, "must not be empty")
    .max(2000, "must be at most 2,000 characters")
    // The rule of every text of several lines (a reason): line breaks, no other control characters.
    .refine((text) => !hasTextControlCharacters(text), "must be plain text: line breaks are fine, tabs and other control characters are not")
    .meta({ description: "What to remember; up to 2,000 characters of plain text (line breaks kept, CR LF stored as LF)." }),
  recipient_id: ZIdSchema.optional().meta({ description: "The user who gets it (someone who may see the contract); left out: the caller." }),
}).meta({ id: "CreateContractReminderRequest" });

export const ZContractReminderPathParamsSchema = z.object({
  contract_id: ZIdParamSchema.meta({ description: "The contract." }),
  reminder_id: ZIdParamSchema.meta({ description: "The reminder." }),
});

// --- Responses ---

/** An internal reminder's fields (lib/schemas/field-table.ts): one row per column of `contract_reminders`. */
export const CONTRACT_REMINDER_FIELDS = fieldTable({
  id: { sql: "int", answer: { name: "id", type: ZIdSchema } },
  /** The contract it belongs to: the path. */
  contractId: { sql: "int" },
  remindOn: { sql: "date", answer: { name: "date", type: ZDateSchema }, write: "today or later in the workspace's time zone", audit: true },
  note: { sql: "text", answer: { name: "note", type: z.string() }, write: "plain text, up to 2,000 characters", audit: true },
  /** Who gets it: written as `recipient_id`, answered as `recipient` (its id, name and e-mail address). */
  recipientId: { sql: "int" },
  createdById: { sql: "int", nullable: true, answer: { name: "created_by_id", type: ZIdSchema } },
  dueAt: { sql: "timestamptz", answer: { name: "due_time", type: ZTimestampSchema.meta({ description: "When it is e-mailed." }) } },
  sentAt: { sql: "timestamptz", nullable: true, answer: { name: "sent_time", type: ZTimestampSchema.meta({ description: "When it was e-mailed; null until then." }) } },
  createdAt: { sql: "timestamptz", answer: { name: "created_time", type: ZTimestampSchema } },
});

export const ZContractReminderSchema = z
  .object(answerShapeOf(CONTRACT_REMINDER_FIELDS, { recipient: z.object({ id: ZIdSchema, name: z.string(), email: z.string() }) }))
  .meta({ id: "ContractReminder" });

export const ZContractReminderListSchema = z.object({ count: z.number().int(), data: z.array(ZContractReminderSchema) }).meta({ id: "ContractReminderList" });

export type TLifecycleSettingsRequest = z.infer<typeof ZLifecycleSettingsRequestSchema>;
export type TTerminateContractRequest = z.infer<typeof ZTerminateContractRequestSchema>;
export type TCreateContractReminderRequest = z.infer<typeof ZCreateContractReminderRequestSchema>;
export type TContractReminder = z.infer<typeof ZContractReminderSchema>;
