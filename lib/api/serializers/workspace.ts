import type { Actor } from "@/lib/domain/actor";
import { canWriteWorkspace } from "@/lib/domain/access";
import { absoluteUrl } from "@/lib/http/links";
import type { Workspace } from "@/lib/generated/prisma/client";
import type { TWorkspace } from "@/lib/schemas";

import { isoTime } from "./time";

export function serializeWorkspace(row: Workspace, { actor, origin }: { actor: Actor; origin: string }): TWorkspace {
  return {
    id: row.id,
    name: row.name,
    company_name: row.companyName,
    description: row.description,
    country_code: row.countryCode,
    time_zone: row.timeZone,
    created_time: isoTime(row.createdAt),
    updated_time: isoTime(row.updatedAt),
    // Creating a contract is writing in the workspace: admins and editors (docs/api.md "Permissions").
    _permissions: { "contract:create": canWriteWorkspace(actor, row.id) },
    _links: { self: { href: absoluteUrl(origin, `/v1/workspaces/${row.id}`) } },
  } satisfies TWorkspace;
}
