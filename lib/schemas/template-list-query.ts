import { z } from "zod";

import { ZIdParamSchema } from "./common";
import { ZPaginationQuerySchema } from "./pagination";

/** GET /v1/templates: pagination plus an optional workspace filter. */
export const ZTemplateListQuerySchema = ZPaginationQuerySchema({ allowAll: false }).extend({
  workspace_id: ZIdParamSchema.optional().meta({ description: "Only templates usable in this workspace." }),
});

export type TTemplateListQuery = z.infer<typeof ZTemplateListQuerySchema>;
