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

// --- Requests ---

/** Keys a client reads in a participant and may echo back; they cannot be written. */
const READ_ONLY = [
  "id",
  "organizer",
  "my_participant",
  "sign_state",
  "sign_state_updated_time",
  "delivery_status",
  "delegated_to_id",
  "_private_ownerside",
  "_links",
];
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
  .object({
    id: ZIdSchema,
    name: z.string(),
    title: z.string(),
    email: z.string(),
    phone_number: z.string(),
    identification_number: z.string(),
    delivery_channel: ZDeliveryChannelSchema,
    delivery_status: oneOf(DELIVERY_STATUSES),
    sign_method: ZSignMethodSchema,
    sign_state: oneOf(SIGN_STATES),
    sign_state_updated_time: ZTimestampSchema.nullable(),
    signatory: z.boolean(),
    sign_order: ZSignOrderSchema,
    delegated_to_id: ZIdSchema.nullable().meta({
      description: "Set when the participant handed their signature on (`participant.delegate`): the participant who signs instead. A delegator is no longer a signatory.",
    }),
    two_step_authentication_method: ZTwoStepMethodSchema,
    organizer: z.boolean(),
    my_participant: z.boolean().meta({ description: "True for the participant that is the calling user." }),
    _permissions: ZParticipantPermissionsSchema,
    _private_ownerside: z.object({
      created_time: ZTimestampSchema,
      first_visited_time: ZTimestampSchema.nullable(),
      last_visited_time: ZTimestampSchema.nullable(),
      updated_time: ZTimestampSchema,
      visits: z.number().int().min(0),
      two_step_locked_time: ZTimestampSchema.nullable().meta({
        description: "When too many wrong e-mailed codes locked the participant's signing link; null when not locked. `POST …/send_invitation` unlocks (a new link).",
      }),
      delivery_failed_time: ZTimestampSchema.nullable().meta({
        description: "When the invitation failed for good (refused, or every retry failed); null once staff send it again or correct the e-mail address.",
      }),
      delivery_failure: z.string().meta({ description: "The mail server's reason for that failure; empty when there is none." }),
      reminders_sent: z.number().int().min(0).meta({ description: "Automatic reminders sent so far (docs/mail.md \"Reminders\")." }),
      last_reminded_time: ZTimestampSchema.nullable(),
      invited_time: ZTimestampSchema.nullable().meta({
        description: "When the invitation went out: at publishing, or when the participant's stage of an ordered contract opened; null before.",
      }),
      delegated_time: ZTimestampSchema.nullable().meta({ description: "When the participant handed their signature on; null otherwise." }),
    }),
    _links: z
      .object({ contract: ZLinkSchema, party: ZLinkSchema, self: ZLinkSchema })
      .optional()
      .meta({ description: "Present on the participant routes; absent inside a contract or party." }),
  })
  .meta({ id: "Participant" });

export type TParticipantPermissions = z.infer<typeof ZParticipantPermissionsSchema>;
export type TCreateParticipantRequest = z.infer<typeof ZCreateParticipantRequestSchema>;
export type TCreateParticipantRequestInput = z.input<typeof ZCreateParticipantRequestSchema>;
export type TUpdateParticipantRequest = z.infer<typeof ZUpdateParticipantRequestSchema>;
export type TParticipantPathParams = z.infer<typeof ZParticipantPathParamsSchema>;
export type TParticipant = z.infer<typeof ZParticipantSchema>;
