import type { Actor } from "@/lib/domain/actor";
import { pageArgs } from "@/lib/services/page-args";
import { visibleWorkspaceIds } from "@/lib/domain/access";
import { USER_SELECT, type TUserRow } from "@/lib/services/users/user-row";
import type { Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TPagination } from "@/lib/schemas";

export interface ListUsersOptions {
  db: Tx;
  actor: Actor;
  pagination: TPagination;
}

/**
 * Admins see every user (active or not). Other users see themselves and the users who share a
 * workspace with them: the people they work with, whom they may want to name as participants.
 */
export async function listUsers({ db, actor, pagination }: ListUsersOptions): Promise<{ count: number; rows: TUserRow[] }> {
  const ids = visibleWorkspaceIds(actor);
  const where: Prisma.UserWhereInput =
    ids === null || actor.kind !== "user"
      ? {}
      : { OR: [{ id: actor.userId }, { memberships: { some: { workspaceId: { in: ids } } } }] };
  const [count, rows] = await Promise.all([
    db.user.count({ where }),
    db.user.findMany({ where, select: USER_SELECT, orderBy: { id: "asc" }, ...pageArgs(pagination) }),
  ]);
  return { count, rows };
}
