/**
 * Who may act and on what: the API token's form and hash (how a credential is recognised), and the
 * workspace permissions of docs/api.md "Permissions" (what its holder may do). One module because
 * the two halves are one concern, access control, and a request's walk (docs/architecture.md) meets
 * both: it passes through one file for them, not two.
 */
import { hash, randomBytes } from "node:crypto";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";

// ——— The API token ———

/** Prefix of tokens this service generates; any string of 16+ characters is accepted as a token. */
export const API_TOKEN_PREFIX = "cst_";
export const MIN_API_TOKEN_LENGTH = 16;

/** Tokens are stored and looked up only by this hash. */
export function hashApiToken(token: string): string {
  // The one-shot hash: no Hash object per request (it runs on every API request, twice for a PUT).
  return hash("sha256", token, "hex");
}

export function generateApiToken(): string {
  return API_TOKEN_PREFIX + randomBytes(30).toString("base64url");
}

/** The part of a token shown in lists, enough to recognise it, never enough to use it. */
export function apiTokenDisplayPrefix(token: string): string {
  return token.slice(0, Math.min(10, Math.floor(token.length / 2)));
}

// ——— Workspace permissions ———
// docs/api.md "Permissions": admins see and change everything; other users read the workspaces they
// have a role in and change those where the role is `editor`.

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

/**
 * 403 unless the actor may change every one of these workspaces: a resource shared by several (a
 * template) is changed only by someone who may change all of them. The caller has made sure the
 * resource is visible (else 404): a workspace it is shared with that the actor cannot see is a 403
 * here too, never a 404 that would tell of it.
 */
export function assertCanWriteEvery(actor: Actor, workspaceIds: number[], what: string): void {
  if (workspaceIds.every((workspaceId) => canWriteWorkspace(actor, workspaceId))) return;
  throw new DomainError("role_cannot_write", `You may not change ${what}: it is used in a workspace where your role does not allow changes.`);
}

/** 403 unless the actor is an administrator (or the anonymous admin). */
export function assertAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw new DomainError("admin_only", "Only administrators may do this.");
}
