import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";

/**
 * Workspace permissions (docs/api.md "Permissions"): admins see and change everything; other users
 * read the workspaces they have a role in and change those where the role is `editor`.
 */

/** Workspace ids whose resources the actor may see; `null` means all (admins). */
export function visibleWorkspaceIds(actor: Actor): number[] | null {
  if (actor.isAdmin) return null;
  return [...actor.roles.keys()];
}

/**
 * A Prisma `where` fragment limiting a query to what the actor may see, so `count` and the page are
 * limited alike: `where: { ...otherFilters, ...workspaceScope(actor) }`.
 */
export function workspaceScope(actor: Actor): { workspaceId?: { in: number[] } } {
  const ids = visibleWorkspaceIds(actor);
  return ids === null ? {} : { workspaceId: { in: ids } };
}

export function canReadWorkspace(actor: Actor, workspaceId: number): boolean {
  return actor.isAdmin || actor.roles.has(workspaceId);
}

export function canWriteWorkspace(actor: Actor, workspaceId: number): boolean {
  return actor.isAdmin || actor.roles.get(workspaceId) === "editor";
}

/**
 * 403 when the actor may see the workspace but not change it. Callers make sure the resource is
 * visible first (else 404); should one forget, this answers 404 too rather than reveal that a
 * workspace the actor cannot see exists.
 */
export function assertCanWrite(actor: Actor, workspaceId: number): void {
  if (canWriteWorkspace(actor, workspaceId)) return;
  if (!canReadWorkspace(actor, workspaceId)) {
    throw new DomainError("resource_not_found", "The resource does not exist.");
  }
  throw new DomainError("role_cannot_write", "Your role in this workspace (viewer) does not allow changes.");
}

/** 403 unless the actor is an administrator (or the anonymous admin). */
export function assertAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw new DomainError("admin_only", "Only administrators may do this.");
}
