import type { Prisma } from "@/lib/generated/prisma/client";
import { AVAILABLE_OPTIONS_SELECT } from "@/lib/services/templates/load-available-options";

/** A template with its type's id, the workspaces it may be used in and the options it offers. */
export const TEMPLATE_SELECT = {
  id: true,
  name: true,
  templateTypeId: true,
  workspaces: { select: { workspace: { select: { id: true, name: true } } }, orderBy: { workspaceId: "asc" } },
  ...AVAILABLE_OPTIONS_SELECT,
} as const satisfies Prisma.TemplateSelect;

export type TTemplateRow = Prisma.TemplateGetPayload<{ select: typeof TEMPLATE_SELECT }>;
