import { absoluteUrl } from "@/lib/http/origin";
import type { TemplateType } from "@/lib/generated/prisma/client";
import type { TTemplateType } from "@/lib/schemas";

import { isoTime } from "./time";

/** docs/api.md "Resources". */
export function serializeTemplateType(row: TemplateType, { origin }: { origin: string }): TTemplateType {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    extension_type: row.extensionType,
    active: row.active,
    created_time: isoTime(row.createdAt),
    updated_time: isoTime(row.updatedAt),
    _links: { self: { href: absoluteUrl(origin, `/v1/template_types/${row.id}`) } },
  } satisfies TTemplateType;
}
