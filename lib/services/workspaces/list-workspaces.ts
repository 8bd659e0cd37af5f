import type { Actor } from "@/lib/domain/actor";
import { pageArgs } from "@/lib/services/page-args";
import { visibleWorkspaceIds } from "@/lib/domain/access";
import type { Tx } from "@/lib/db";
import type { Workspace } from "@/lib/generated/prisma/client";
import type { TPagination } from "@/lib/schemas";

export interface ListWorkspacesOptions {
  db: Tx;
  actor: Actor;
  pagination: TPagination;
}

/** The workspaces the actor has a role in (admins: all), by id; `count` is over the same set. */
export async function listWorkspaces({ db, actor, pagination }: ListWorkspacesOptions): Promise<{ count: number; rows: Workspace[] }> {
  const ids = visibleWorkspaceIds(actor);
  const where = ids === null ? {} : { id: { in: ids } };
  const [count, rows] = await Promise.all([
    db.workspace.count({ where }),
    db.workspace.findMany({ where, orderBy: { id: "asc" }, ...pageArgs(pagination) }),
  ]);
  return { count, rows };
}
