import { z } from "zod";

import { DELIVERY_CHANNELS, DELIVERY_STATUSES, SIGN_METHODS, SIGN_STATES, TWO_STEP_METHODS } from "@/lib/domain/enums";

import {
  ZBooleanSchema,
  ZIdParamSchema,
  ZIdSchema,
  ZLinkSchema,
  ZNameSchema,
  ZTimestampSchema,
  oneOf,
  requestObject,
  typeError,
} from "./common";
import { answerShapeOf, fieldTable, readOnlyAnswerNamesOf } from "./field-table";

// --- Field schemas, shared by the API bodies and the web forms ---

/** A text a client may clear: `""` means "not set", `null` is refused with a hint. */
const clearableText = () => z.string({ error: typeError("a string", { clearWith: '""' }) }).trim();

export const ZParticipantNameSchema = ZNameSchema.meta({ description: "The participant's name, 1–100 characters." });

export const ZEmailSchema = clearableText()
  .max(254, "must be at most 254 characters")
  .refine((email) => email === "" || z.regexes.email.test(email), "must be a valid e-mail address")
  .meta({
    description: 'E-mail address, or "" when not set.',
    anyOf: [{ const: "" }, { format: "email" }],
    example: "jane.doe@example.com",
  });

export const ZPhoneNumberSchema = clearableText()
  .regex(/^(?:\+[1-9]\d{6,14})?$/, "must be in E.164 format, e.g. +46701234567")
  .meta({ description: 'Phone number in E.164 format (`+` and 7–15 digits), or "" when not set.', example: "+46701234567" });

export const ZTitleSchema = clearableText()
  .max(100, "must be at most 100 characters")
  .meta({ description: 'Job title, or "" when not set.', example: "CFO" });

export const ZIdentificationNumberSchema = clearableText()
  .max(25, "must be at most 25 characters")
  .meta({ description: 'Date of birth, personal or registration number, or "" when not set.' });

export const ZDeliveryChannelSchema = oneOf(DELIVERY_CHANNELS).meta({
  id: "DeliveryChannel",
  description: "How the participant is notified. Only options the contract's template offers are accepted.",
});
export const ZSignMethodSchema = oneOf(SIGN_METHODS).meta({
  id: "SignMethod",
  description: "How the participant signs. Only options the contract's template offers are accepted.",
});
export const ZTwoStepMethodSchema = oneOf(TWO_STEP_METHODS).meta({
  id: "TwoStepAuthenticationMethod",
  description: "Extra check before the participant may open the contract. Only options the template offers are accepted.",
});

export const ZSignOrderSchema = z
  .number({ error: typeError("a whole number from 1 up, or null", { clearWith: "null" }) })
  .int("must be a whole number from 1 up")
  .min(1, "must be 1 or more: 1 signs first")
  .max(250, "must be at most 250")
  .nullable()
  .meta({
    description:
      "The signing stage on a contract with `signing_order: ordered`: 1 signs first, signatories sharing a number sign in parallel, " +
      "and the next stage is invited when the one before has signed. Null when not set; unused on a parallel contract. Frozen once published.",
  });

export const ZParticipantPermissionsSchema = requestObject({
  "contract:update": ZBooleanSchema.meta({ description: "The participant may change the contract." }),
}).meta({ id: "ParticipantPermissions" });

// --- The participant's fields (lib/schemas/field-table.ts): one row per column of `participants` ---

const count = () => z.number().int().min(0);
const AS_PRIVATE = "_private_ownerside";

/**
 * A participant's fields. `write` names the rule a request writes it under (docs/api.md "Updating a
 * participant"); `frozen: "published"` fields are fixed once the contract is published,
 * `"decided"` ones once the participant signed or declined (docs/api.md "After publishing").
 */
export const PARTICIPANT_FIELDS = fieldTable({
  id: { sql: "int", answer: { name: "id", type: ZIdSchema }, audit: true },
  partyId: { sql: "int" },
  /** The user of the service an owner-side participant is: the answer's `my_participant`. */
  userId: { sql: "int", nullable: true },
  name: { sql: "text", answer: { name: "name", type: z.string() }, write: "any; an individual party's name follows it", audit: true, frozen: "decided" },
  title: { sql: "text", answer: { name: "title", type: z.string() }, write: "any", audit: true },
  email: { sql: "text", answer: { name: "email", type: z.string() }, write: "not for an owner-side participant", audit: true, frozen: "decided" },
  phoneNumber: { sql: "text", answer: { name: "phone_number", type: z.string() }, write: "any", audit: true },
  identificationNumber: { sql: "text", answer: { name: "identification_number", type: z.string() }, write: "any; an individual party's number follows it", audit: true },
  deliveryChannel: { sql: "delivery_channel", answer: { name: "delivery_channel", type: ZDeliveryChannelSchema }, write: "an option the template offers", audit: true },
  deliveryStatus: { sql: "delivery_status", answer: { name: "delivery_status", type: oneOf(DELIVERY_STATUSES) } },
  signMethod: { sql: "sign_method", answer: { name: "sign_method", type: ZSignMethodSchema }, write: "an option the template offers", audit: true, frozen: "decided" },
  signState: { sql: "sign_state", answer: { name: "sign_state", type: oneOf(SIGN_STATES) } },
  signStateUpdatedAt: { sql: "timestamptz", nullable: true, answer: { name: "sign_state_updated_time", type: ZTimestampSchema } },
  signatory: { sql: "boolean", answer: { name: "signatory", type: z.boolean() }, write: "needs contract:update", audit: true, frozen: "published" },
  signOrder: { sql: "int", nullable: true, answer: { name: "sign_order", type: ZSignOrderSchema }, write: "1 to 250, or null", audit: true, frozen: "published" },
  delegatedToId: {
    sql: "int",
    nullable: true,
    answer: {
      name: "delegated_to_id",
      type: ZIdSchema.meta({
        description: "Set when the participant handed their signature on (`participant.delegate`): the participant who signs instead. A delegator is no longer a signatory.",
      }),
    },
  },
  twoStepMethod: {
    column: "two_step_authentication_method",
    sql: "two_step_method",
    answer: { name: "two_step_authentication_method", type: ZTwoStepMethodSchema },
    write: "an option the template offers",
    audit: true,
    frozen: "decided",
  },
  organizer: { sql: "boolean", answer: { name: "organizer", type: z.boolean() }, audit: true },
  canUpdateContract: {
    sql: "boolean",
    answer: { name: "contract:update", in: "_permissions", type: z.boolean().meta({ description: "The participant may change the contract." }) },
    write: "true for a signatory",
    audit: true,
  },
  createdAt: { sql: "timestamptz", answer: { name: "created_time", in: AS_PRIVATE, type: ZTimestampSchema } },
  firstVisitedAt: { sql: "timestamptz", nullable: true, answer: { name: "first_visited_time", in: AS_PRIVATE, type: ZTimestampSchema } },
  lastVisitedAt: { sql: "timestamptz", nullable: true, answer: { name: "last_visited_time", in: AS_PRIVATE, type: ZTimestampSchema } },
  updatedAt: { sql: "timestamptz", answer: { name: "updated_time", in: AS_PRIVATE, type: ZTimestampSchema } },
  visits: { sql: "int", answer: { name: "visits", in: AS_PRIVATE, type: count() } },
  twoStepLockedAt: {
    sql: "timestamptz",
    nullable: true,
    answer: {
      name: "two_step_locked_time",
      in: AS_PRIVATE,
      type: ZTimestampSchema.meta({
        description: "When too many wrong e-mailed codes locked the participant's signing link; null when not locked. `POST …/send_invitation` unlocks (a new link).",
      }),
    },
  },
  deliveryFailedAt: {
    sql: "timestamptz",
    nullable: true,
    answer: {
      name: "delivery_failed_time",
      in: AS_PRIVATE,
      type: ZTimestampSchema.meta({
        description: "When the invitation failed for good (refused, or every retry failed); null once staff send it again or correct the e-mail address.",
      }),
    },
  },
  deliveryFailure: {
    sql: "text",
    answer: { name: "delivery_failure", in: AS_PRIVATE, type: z.string().meta({ description: "The mail server's reason for that failure; empty when there is none." }) },
  },
  remindersSent: {
    sql: "int",
    answer: { name: "reminders_sent", in: AS_PRIVATE, type: count().meta({ description: 'Automatic reminders sent so far (docs/mail.md "Reminders").' }) },
  },
  lastRemindedAt: { sql: "timestamptz", nullable: true, answer: { name: "last_reminded_time", in: AS_PRIVATE, type: ZTimestampSchema } },
  invitedAt: {
    sql: "timestamptz",
    nullable: true,
    answer: {
      name: "invited_time",
      in: AS_PRIVATE,
      type: ZTimestampSchema.meta({
        description: "When the invitation went out: at publishing, or when the participant's stage of an ordered contract opened; null before.",
      }),
    },
  },
  delegatedAt: {
    sql: "timestamptz",
    nullable: true,
    answer: { name: "delegated_time", in: AS_PRIVATE, type: ZTimestampSchema.meta({ description: "When the participant handed their signature on; null otherwise." }) },
  },
  /** The participant's ETag: every change increments it. */
  version: { sql: "int" },
  signingNonce: { sql: "text", nullable: true, internal: "the signing link's secret part (lib/services/signing)" },
  signingTokenHash: { sql: "text", nullable: true, internal: "finds the participant a signing link belongs to" },
  signedName: { sql: "text", internal: "the name typed to sign, for the sealed copy" },
  declineReason: { sql: "text", internal: "the signing page's, for the audit event and the sealed copy" },
  decidedIp: { sql: "text", internal: "the completion certificate's" },
  decidedUserAgent: { sql: "text", internal: "the completion certificate's" },
  twoStepCodeNonce: { sql: "text", nullable: true, internal: "the e-mailed code's secret part" },
  twoStepCodeExpiresAt: { sql: "timestamptz", nullable: true, internal: "the e-mailed code's" },
  twoStepCodeAttempts: { sql: "int", internal: "the e-mailed code's" },
  twoStepWrongTries: { sql: "int", internal: "the e-mailed code's lock" },
  twoStepWrongTriesTotal: { sql: "int", internal: "the e-mailed code's lock" },
  twoStepCodeRequests: { sql: "int", internal: "the e-mailed code's pacing" },
  expiryWarnedAt: { sql: "timestamptz", nullable: true, internal: "the reminders job's" },
});

// --- Requests ---

/** Keys a client reads in a participant and may echo back; they cannot be written. */
const READ_ONLY = [...readOnlyAnswerNamesOf(PARTICIPANT_FIELDS), "my_participant", "_links"];
const readOnlyHints = Object.fromEntries(READ_ONLY.map((key) => [key, "is read-only"]));

/** The writable attributes of a participant (docs/api.md "Updating a participant"); the same set is accepted on creation. */
const writableAttributes = {
  name: ZParticipantNameSchema,
  title: ZTitleSchema.optional(),
  email: ZEmailSchema.optional(),
  phone_number: ZPhoneNumberSchema.optional(),
  identification_number: ZIdentificationNumberSchema.optional(),
  delivery_channel: ZDeliveryChannelSchema.optional(),
  sign_method: ZSignMethodSchema.optional(),
  two_step_authentication_method: ZTwoStepMethodSchema.optional(),
  signatory: ZBooleanSchema.optional().meta({ description: "The participant signs. Requires `_permissions.contract:update`." }),
  sign_order: ZSignOrderSchema.optional(),
  _permissions: ZParticipantPermissionsSchema.optional(),
};

export const ZCreateParticipantRequestSchema = requestObject(writableAttributes, readOnlyHints).meta({
  id: "CreateParticipantRequest",
  description:
    "Omitted options get the template's defaults (sign_method standard_esign when offered). " +
    "email and phone_number are required when the chosen delivery channel or two-step method needs them.",
});

export const ZUpdateParticipantRequestSchema = ZCreateParticipantRequestSchema.partial().meta({
  id: "UpdateParticipantRequest",
  description:
    "Only the attributes sent change; `{}` changes nothing. `null` is refused: clear a text with `\"\"`. " +
    "The e-mail of an owner-side participant cannot be changed.",
});

export const ZParticipantPathParamsSchema = z.object({
  contract_id: ZIdParamSchema.meta({ description: "The contract that holds the participant." }),
  party_id: ZIdParamSchema.meta({ description: "The party of the participant." }),
  participant_id: ZIdParamSchema.meta({ description: "The participant." }),
});

// --- Response (docs/api.md "The domain") ---

export const ZParticipantSchema = z
  .object(
    answerShapeOf(PARTICIPANT_FIELDS, {
      my_participant: z.boolean().meta({ description: "True for the participant that is the calling user." }),
      _links: z
        .object({ contract: ZLinkSchema, party: ZLinkSchema, self: ZLinkSchema })
        .optional()
        .meta({ description: "Present on the participant routes; absent inside a contract or party." }),
    }),
  )
  .meta({ id: "Participant" });

export type TParticipantPermissions = z.infer<typeof ZParticipantPermissionsSchema>;
export type TCreateParticipantRequest = z.infer<typeof ZCreateParticipantRequestSchema>;
export type TCreateParticipantRequestInput = z.input<typeof ZCreateParticipantRequestSchema>;
export type TUpdateParticipantRequest = z.infer<typeof ZUpdateParticipantRequestSchema>;
export type TParticipantPathParams = z.infer<typeof ZParticipantPathParamsSchema>;
export type TParticipant = z.infer<typeof ZParticipantSchema>;
