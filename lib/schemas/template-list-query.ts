import { z } from "zod";

import { ZIdParamSchema } from "./common";
import { ZPaginationQuerySchema } from "./pagination";

// Its own file (not yet exported from ./index or used by lib/openapi) so the templates endpoint could
// land without touching files other work is changing; fold it into ./template.ts when convenient.
export const ZTemplateListQuerySchema = ZPaginationQuerySchema({ allowAll: false }).extend({
  workspace_id: ZIdParamSchema.optional().meta({ description: "Only templates usable in this workspace." }),
});

export type TTemplateListQuery = z.infer<typeof ZTemplateListQuerySchema>;
