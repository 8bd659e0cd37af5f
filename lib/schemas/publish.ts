import { z } from "zod";

import { ZIdSchema, ZTimestampSchema, reasonSchema, requestObject, typeError } from "./common";

export const ZPublishContractRequestSchema = requestObject({
  subject: z
    .string({ error: typeError("a string") })
    .trim()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .refine((s) => !/[\r\n]/.test(s), "must be one line")
    .optional()
    .meta({ description: "The invitation e-mail's subject. Default: “Please sign: {contract name}”." }),
  message: z
    .string({ error: typeError("a string") })
    .trim()
    .max(5000, "must be at most 5000 characters")
    .optional()
    .meta({ description: "A personal message put in every invitation." }),
}).meta({ id: "PublishContractRequest" });

export const ZWithdrawContractRequestSchema = requestObject({
  reason: reasonSchema({
    tooLong: "must be at most 2,000 characters",
    notPlain: "must be plain text: line breaks are fine, tabs and other control characters are not",
  })
    .meta({
      description:
        "Why, in plain text (trimmed; line breaks kept, CR LF stored as LF; no other control characters): kept in the " +
        "`contract.withdraw` audit event, its webhook's `reason` and the e-mail participants get. Optional; `\"\"` for none.",
    }),
}).meta({ id: "WithdrawContractRequest" });

export const ZPublishReadinessSchema = z
  .object({
    ready: z.boolean().meta({ description: "True when POST …/publish would succeed now." }),
    problems: z
      .array(
        z.object({
          path: z.string().meta({ description: "As in `parameter_problems` of the refused publish, e.g. `parties.1.participants.0.email`." }),
          message: z.string(),
          party_id: ZIdSchema.nullable(),
          participant_id: ZIdSchema.nullable(),
          missing_data_field: z
            .object({ custom_id: z.string(), name: z.string() })
            .nullable()
            .meta({
              description:
                "The data field the contract's text needs a value for (`path` is `data_fields.{custom_id}`), as in the document's " +
                "`missing_data_fields`; null for every other problem.",
            }),
        }),
      )
      .meta({ description: "Everything that stands in the way, in the order of the contract's parties." }),
  })
  .meta({ id: "PublishReadiness" });

export const ZSigningLinkSchema = z
  .object({
    url: z.string().meta({ description: "The participant's personal signing page. Treat it like a password." }),
    expiry_time: ZTimestampSchema.nullable().meta({ description: "The link works until then, or until the contract is no longer pending." }),
  })
  .meta({ id: "SigningLink" });

export type TPublishContractRequest = z.infer<typeof ZPublishContractRequestSchema>;
export type TPublishReadiness = z.infer<typeof ZPublishReadinessSchema>;
export type TSigningLink = z.infer<typeof ZSigningLinkSchema>;
