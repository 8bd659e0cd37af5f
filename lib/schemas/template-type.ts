import { z } from "zod";

import { ZIdParamSchema, ZIdSchema, ZLinkSchema, ZTimestampSchema } from "./common";
import { answerShapeOf, fieldTable } from "./field-table";
import { ZPaginatedSchema } from "./pagination";

/** A template type's fields (lib/schemas/field-table.ts): one row per column of `template_types`; the API only reads them. */
export const TEMPLATE_TYPE_FIELDS = fieldTable({
  id: { sql: "int", answer: { name: "id", type: ZIdSchema } },
  name: { sql: "text", answer: { name: "name", type: z.string() } },
  description: { sql: "text", answer: { name: "description", type: z.string() } },
  extensionType: { sql: "text", answer: { name: "extension_type", type: z.string().meta({ example: "pdf" }) } },
  active: {
    sql: "boolean",
    answer: { name: "active", type: z.boolean().meta({ description: "Whether the type is in use (as in the Oneflow API); an inactive type is kept for its templates." }) },
  },
  createdAt: { sql: "timestamptz", answer: { name: "created_time", type: ZTimestampSchema } },
  updatedAt: { sql: "timestamptz", answer: { name: "updated_time", type: ZTimestampSchema } },
});

/** docs/api.md "Resources". */
export const ZTemplateTypeSchema = z.object(answerShapeOf(TEMPLATE_TYPE_FIELDS, { _links: z.object({ self: ZLinkSchema }) })).meta({ id: "TemplateType" });

export const ZTemplateTypeListSchema = ZPaginatedSchema(ZTemplateTypeSchema).meta({ id: "TemplateTypeList" });

export const ZTemplateTypePathParamsSchema = z.object({
  template_type_id: ZIdParamSchema.meta({ description: "The template type." }),
});

export type TTemplateType = z.infer<typeof ZTemplateTypeSchema>;
export type TTemplateTypeList = z.infer<typeof ZTemplateTypeListSchema>;
export type TTemplateTypePathParams = z.infer<typeof ZTemplateTypePathParamsSchema>;
