import type { Actor } from "@/lib/domain/actor";
import { absoluteUrl } from "@/lib/http/origin";
import { canReadWorkspace } from "@/lib/domain/permissions";
import type { TTemplate } from "@/lib/schemas";
import { toAvailableOptions } from "@/lib/services/templates/load-available-options";
import type { TTemplateRow } from "@/lib/services/templates/template-row";

import { serializeTemplateType } from "./template-type";

/**
 * The template's workspaces are limited to those the caller can see: the names of other
 * workspaces are not the caller's to know.
 */
export function serializeTemplate(row: TTemplateRow, { actor, origin }: { actor: Actor; origin: string }): TTemplate {
  return {
    id: row.id,
    name: row.name,
    template_type: row.templateType ? serializeTemplateType(row.templateType, { origin }) : null,
    workspaces: row.workspaces
      .map(({ workspace }) => workspace)
      .filter((workspace) => canReadWorkspace(actor, workspace.id))
      .map(({ id, name }) => ({ id, name })),
    available_options: toAvailableOptions(row),
    _links: { self: { href: absoluteUrl(origin, `/v1/templates/${row.id}`) } },
  } satisfies TTemplate;
}
