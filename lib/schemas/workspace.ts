import { z } from "zod";

import { ZIdParamSchema, ZIdSchema, ZLinkSchema, ZTimestampSchema } from "./common";
import { ZPaginatedSchema } from "./pagination";

export const ZWorkspaceSchema = z
  .object({
    id: ZIdSchema,
    name: z.string(),
    company_name: z.string().meta({ description: "Name of the owner-side party of contracts created here." }),
    description: z.string(),
    country_code: z.string().meta({ description: 'ISO 3166-1 alpha-2, or "" when not set.' }),
    time_zone: z.string().meta({
      description: "IANA time zone of its contracts' dates: they start, renew and end at midnight there (docs: lifecycle). Administrators change it with PUT …/reminder_settings.",
      example: "Europe/Stockholm",
    }),
    created_time: ZTimestampSchema,
    updated_time: ZTimestampSchema,
    _permissions: z.object({
      "contract:create": z.boolean().meta({ description: "The caller may create contracts here (admin or editor)." }),
    }),
    _links: z.object({ self: ZLinkSchema }),
  })
  .meta({ id: "Workspace" });

export const ZWorkspaceListSchema = ZPaginatedSchema(ZWorkspaceSchema).meta({ id: "WorkspaceList" });

export const ZWorkspacePathParamsSchema = z.object({ workspace_id: ZIdParamSchema.meta({ description: "The workspace." }) });

export type TWorkspace = z.infer<typeof ZWorkspaceSchema>;
export type TWorkspaceList = z.infer<typeof ZWorkspaceListSchema>;
