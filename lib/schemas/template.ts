import { z } from "zod";

import { PARTICIPANT_ATTRIBUTES } from "@/lib/domain/enums";

import { ZIdParamSchema, ZIdSchema, ZLinkSchema, oneOf } from "./common";
import { ZBodySchema, ZTemplateDataFieldSchema } from "./document";
import { ZDurationSchema, ZPeriodSchema } from "./lifecycle";
import { answerShapeOf, fieldTable } from "./field-table";
import { ZPaginatedSchema } from "./pagination";
import { ZDeliveryChannelSchema, ZSignMethodSchema, ZTwoStepMethodSchema } from "./participant";
import { ZTemplateTypeSchema } from "./template-type";

const requiredAttributes = z.array(oneOf(PARTICIPANT_ATTRIBUTES)).meta({
  description: "Participant attributes that must be non-empty when this option is chosen (spec 2.3.1).",
  example: ["email"],
});

/**
 * The options a template offers its participants (docs/api.md). The conditional requirements of
 * docs/api.md "The domain" are the `required_participant_attributes` here; lib/domain/options.ts applies them.
 */
export const ZAvailableOptionsSchema = z
  .object({
    delivery_channels: z.array(
      z.object({ name: ZDeliveryChannelSchema, preferred: z.boolean(), required_participant_attributes: requiredAttributes }),
    ),
    sign_methods: z.array(z.object({ name: ZSignMethodSchema, preferred: z.boolean() })),
    two_step_authentication_methods: z.array(
      z.object({ name: ZTwoStepMethodSchema, preferred: z.boolean(), required_participant_attributes: requiredAttributes }),
    ),
  })
  .meta({ id: "AvailableOptions" });

/**
 * A template's fields (lib/schemas/field-table.ts): one row per column of `templates`. Templates are
 * made by the seed and the database; a request only replaces the body (docs/documents.md).
 */
export const TEMPLATE_FIELDS = fieldTable({
  id: { sql: "int", answer: { name: "id", type: ZIdSchema } },
  name: { sql: "text", answer: { name: "name", type: z.string() } },
  /** Its type: the answer's `template_type` (lib/api/json/template-type.ts answers it). */
  templateTypeId: { sql: "int", nullable: true },
  signingPeriodDays: { sql: "int", internal: "publishing's: how long a published contract stays open (lib/services/contracts/publish-contract.ts)" },
  body: { sql: "jsonb", internal: "the text: only the detail (GET /v1/templates/{id}) answers it, and PUT replaces it (lib/services/templates/update-template.ts)" },
  /** The duration settings a new contract takes when its request gives none (docs/lifecycle.md). */
  durationType: { sql: "duration_type", answer: { name: "duration", in: "lifecycle_settings", type: ZDurationSchema } },
  initialDuration: { sql: "text", nullable: true, answer: { name: "initial_duration", in: "lifecycle_settings", type: ZPeriodSchema } },
  renewalPeriod: { sql: "text", nullable: true, answer: { name: "renewal_period", in: "lifecycle_settings", type: ZPeriodSchema } },
  noticePeriod: { sql: "text", nullable: true, answer: { name: "notice_period", in: "lifecycle_settings", type: ZPeriodSchema } },
  createdAt: { sql: "timestamptz", internal: "kept for the record; no answer or rule reads it" },
  updatedAt: { sql: "timestamptz", internal: "kept for the record; no answer or rule reads it" },
});

export const ZTemplateSchema = z
  .object({
    ...answerShapeOf(TEMPLATE_FIELDS),
    template_type: ZTemplateTypeSchema.nullable(),
    workspaces: z
      .array(z.object({ id: ZIdSchema, name: z.string() }))
      .meta({ description: "The workspaces in which contracts may be created from this template." }),
    available_options: ZAvailableOptionsSchema,
    _links: z.object({ self: ZLinkSchema }),
  })
  .meta({ id: "Template" });

export const ZTemplateDetailSchema = ZTemplateSchema.extend({
  body: ZBodySchema,
  data_fields: z.array(ZTemplateDataFieldSchema).meta({ description: "In their order; the body names them by custom_id." }),
}).meta({ id: "TemplateDetail" });

export const ZTemplateListSchema = ZPaginatedSchema(ZTemplateSchema).meta({ id: "TemplateList" });

export const ZTemplatePathParamsSchema = z.object({ template_id: ZIdParamSchema.meta({ description: "The template." }) });

export type TAvailableOptions = z.infer<typeof ZAvailableOptionsSchema>;
export type TTemplate = z.infer<typeof ZTemplateSchema>;
export type TTemplateDetail = z.infer<typeof ZTemplateDetailSchema>;
export type TTemplateList = z.infer<typeof ZTemplateListSchema>;
export type TTemplatePathParams = z.infer<typeof ZTemplatePathParamsSchema>;
