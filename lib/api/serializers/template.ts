import type { Actor } from "@/lib/api/auth";
import { absoluteUrl } from "@/lib/api/origin";
import { canReadWorkspace } from "@/lib/api/permissions";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TTemplate } from "@/lib/schemas";
import { AVAILABLE_OPTIONS_SELECT, toAvailableOptions } from "@/lib/services/templates/load-available-options";

import { serializeTemplateType } from "./template-type";

/** A template with its type, the workspaces it may be used in and the options it offers. */
export const TEMPLATE_SELECT = {
  id: true,
  name: true,
  templateType: true,
  workspaces: { select: { workspace: { select: { id: true, name: true } } }, orderBy: { workspaceId: "asc" } },
  ...AVAILABLE_OPTIONS_SELECT,
} as const satisfies Prisma.TemplateSelect;

export type TTemplateRow = Prisma.TemplateGetPayload<{ select: typeof TEMPLATE_SELECT }>;

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
