import type { Prisma } from "@/lib/generated/prisma/client";
import { rowSelectOf } from "@/lib/schemas/field-table";
import { TEMPLATE_FIELDS } from "@/lib/schemas/template";
import { AVAILABLE_OPTIONS_SELECT } from "@/lib/services/templates/available-options-row";

/** A template's fields (lib/schemas/template.ts; its type's id among them), the workspaces it may be used in and the options it offers. */
export const TEMPLATE_SELECT = {
  ...rowSelectOf(TEMPLATE_FIELDS),
  workspaces: { select: { workspace: { select: { id: true, name: true } } }, orderBy: { workspaceId: "asc" } },
  ...AVAILABLE_OPTIONS_SELECT,
} as const satisfies Prisma.TemplateSelect;

export type TTemplateRow = Prisma.TemplateGetPayload<{ select: typeof TEMPLATE_SELECT }>;

/** GET /v1/templates/{id} answers the body and the data fields too (the list does not). */
export const TEMPLATE_DETAIL_SELECT = {
  ...TEMPLATE_SELECT,
  body: true,
  dataFields: { select: { name: true, customId: true, defaultValue: true }, orderBy: [{ position: "asc" }, { id: "asc" }] },
} as const satisfies Prisma.TemplateSelect;

export type TTemplateDetailRow = Prisma.TemplateGetPayload<{ select: typeof TEMPLATE_DETAIL_SELECT }>;
