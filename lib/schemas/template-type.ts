import { z } from "zod";

import { ZIdParamSchema, ZIdSchema, ZLinkSchema, ZTimestampSchema } from "./common";
import { ZPaginatedSchema } from "./pagination";

/** docs/api.md "Resources". */
export const ZTemplateTypeSchema = z
  .object({
    id: ZIdSchema,
    name: z.string(),
    description: z.string(),
    extension_type: z.string().meta({ example: "pdf" }),
    active: z.boolean().meta({ description: "Whether the type is in use (as in the Oneflow API); an inactive type is kept for its templates." }),
    created_time: ZTimestampSchema,
    updated_time: ZTimestampSchema,
    _links: z.object({ self: ZLinkSchema }),
  })
  .meta({ id: "TemplateType" });

export const ZTemplateTypeListSchema = ZPaginatedSchema(ZTemplateTypeSchema).meta({ id: "TemplateTypeList" });

export const ZTemplateTypePathParamsSchema = z.object({
  template_type_id: ZIdParamSchema.meta({ description: "The template type." }),
});

export type TTemplateType = z.infer<typeof ZTemplateTypeSchema>;
export type TTemplateTypeList = z.infer<typeof ZTemplateTypeListSchema>;
export type TTemplateTypePathParams = z.infer<typeof ZTemplateTypePathParamsSchema>;
