import { z } from "zod";

import { ZIdParamSchema, ZIdSchema, ZLinkSchema, ZTimestampSchema } from "./common";
import { ZPaginatedSchema } from "./pagination";

/** docs/api.md "Resources": a contract's copy of one of its template's data fields. */
export const ZDataFieldSchema = z
  .object({
    id: ZIdSchema,
    name: z.string(),
    description: z.string().meta({ description: "May be empty." }),
    placeholder: z.string().meta({ description: "May be empty." }),
    value: z.string().meta({ description: "May be empty." }),
    _private_ownerside: z.object({
      created_time: ZTimestampSchema,
      custom_id: z.string(),
      updated_time: ZTimestampSchema,
    }),
    _links: z.object({ contract: ZLinkSchema, self: ZLinkSchema }),
  })
  .meta({ id: "DataField" });

export const ZDataFieldListSchema = ZPaginatedSchema(ZDataFieldSchema).meta({ id: "DataFieldList" });

export const ZDataFieldPathParamsSchema = z.object({
  contract_id: ZIdParamSchema.meta({ description: "The contract that holds the data field." }),
  data_field_id: ZIdParamSchema.meta({ description: "The data field." }),
});

export type TDataField = z.infer<typeof ZDataFieldSchema>;
export type TDataFieldList = z.infer<typeof ZDataFieldListSchema>;
export type TDataFieldPathParams = z.infer<typeof ZDataFieldPathParamsSchema>;
