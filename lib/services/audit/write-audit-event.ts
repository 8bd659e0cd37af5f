import type { Tx } from "@/lib/db";
import type { TAuditActor } from "@/lib/domain/actor";
import type { Prisma } from "@/lib/generated/prisma/client";

export interface WriteAuditEventOptions {
  db: Tx;
  actor: TAuditActor;
  /** `<entity>.<verb>`, e.g. `contract.create`. */
  action: string;
  entityType: string;
  entityId: number;
  /** The contract the entity belongs to, when it belongs to one. */
  contractId?: number;
  requestId?: string;
  /** The changed attributes by their API names, before and after; omitted for a creation's `before`. */
  before?: Prisma.InputJsonValue;
  after?: Prisma.InputJsonValue;
  /** The contract's workspace; looked up from `contractId` when omitted (webhook subscriptions filter by it). */
  workspaceId?: number;
}

/** The workspace an event belongs to: given, the contract's, else the one its before/after name (a deleted contract's). */
async function workspaceOf(db: Tx, { workspaceId, contractId, before, after }: Pick<WriteAuditEventOptions, "workspaceId" | "contractId" | "before" | "after">): Promise<number | null> {
  if (workspaceId !== undefined) return workspaceId;
  if (contractId !== undefined) {
    const contract = await db.contract.findUnique({ where: { id: contractId }, select: { workspaceId: true } });
    if (contract) return contract.workspaceId;
  }
  for (const values of [before, after]) {
    const named = values && typeof values === "object" && !Array.isArray(values) ? (values as Record<string, unknown>).workspace_id : undefined;
    if (typeof named === "number") return named;
  }
  return null;
}

/**
 * The one way a service records a change in `audit_events`: who (user, API token, how they came in),
 * what, and the request it came with. Call it inside the change's transaction. The audit trail is also
 * the webhooks' outbox (lib/services/webhooks): an event committed here is delivered to subscribers.
 */
export async function writeAuditEvent({ db, actor, action, entityType, entityId, contractId, requestId, before, after, workspaceId }: WriteAuditEventOptions): Promise<void> {
  const workspace = await workspaceOf(db, { workspaceId, contractId, before, after });
  await db.auditEvent.create({
    data: {
      action,
      entityType,
      entityId,
      ...(contractId === undefined ? {} : { contractId }),
      actorUserId: actor.kind === "user" ? actor.userId : null,
      apiTokenId: actor.kind === "user" || actor.kind === "anonymous_admin" ? actor.apiTokenId : null,
      via: actor.kind === "signer" ? "signing_link" : actor.kind === "system" ? "system" : actor.via,
      requestId: requestId ?? null,
      ...(before === undefined ? {} : { before }),
      ...(after === undefined ? {} : { after }),
      workspaceId: workspace,
    },
  });
}
