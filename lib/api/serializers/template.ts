import type { Actor } from "@/lib/domain/actor";
import { absoluteUrl } from "@/lib/http/origin";
import { canReadWorkspace } from "@/lib/domain/permissions";
import type { TTemplate, TTemplateType } from "@/lib/schemas";
import { toAvailableOptions } from "@/lib/services/templates/load-available-options";
import type { TTemplateRow } from "@/lib/services/templates/template-row";

/**
 * The template's workspaces are limited to those the caller can see: the names of other
 * workspaces are not the caller's to know. Its type is answered by lib/api/json/template-type.ts
 * (`templateTypeAnswers`), the one producer of that shape.
 */
export function serializeTemplate(row: TTemplateRow, { actor, origin, templateTypes }: { actor: Actor; origin: string; templateTypes: ReadonlyMap<number, TTemplateType> }): TTemplate {
  return {
    id: row.id,
    name: row.name,
    template_type: row.templateTypeId === null ? null : (templateTypes.get(row.templateTypeId) ?? null),
    workspaces: row.workspaces
      .map(({ workspace }) => workspace)
      .filter((workspace) => canReadWorkspace(actor, workspace.id))
      .map(({ id, name }) => ({ id, name })),
    available_options: toAvailableOptions(row),
    _links: { self: { href: absoluteUrl(origin, `/v1/templates/${row.id}`) } },
  } satisfies TTemplate;
}
