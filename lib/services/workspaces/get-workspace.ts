import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { visibleWorkspaceIds } from "@/lib/domain/access";
import type { Workspace } from "@/lib/generated/prisma/client";

/** The workspace, if the actor has a role in it (admins: any); else the same 404 as a missing one. */
export async function getWorkspace({ db, actor, workspaceId }: { db: Tx; actor: Actor; workspaceId: number }): Promise<Workspace> {
  const ids = visibleWorkspaceIds(actor);
  const row = ids === null || ids.includes(workspaceId) ? await db.workspace.findUnique({ where: { id: workspaceId } }) : null;
  if (!row) throw new DomainError("resource_not_found", `Workspace ${workspaceId} does not exist.`);
  return row;
}
