import type { Actor } from "@/lib/domain/actor";
import { visibleWorkspaceIds } from "@/lib/domain/access";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Templates usable in a workspace the actor sees (admins: every template, including one not yet
 * assigned to any workspace), or, given `workspaceId`, usable in that workspace if the actor sees
 * it. One `some` condition for both, so a template usable in a hidden workspace and a visible one
 * does not show up when filtering by the hidden one.
 */
export function visibleTemplatesWhere(actor: Actor, workspaceId?: number): Prisma.TemplateWhereInput {
  const ids = visibleWorkspaceIds(actor);
  const workspace: Prisma.IntFilter = {
    ...(ids === null ? {} : { in: ids }),
    ...(workspaceId === undefined ? {} : { equals: workspaceId }),
  };
  return Object.keys(workspace).length === 0 ? {} : { workspaces: { some: { workspaceId: workspace } } };
}
