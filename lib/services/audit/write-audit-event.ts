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
}

/**
 * The one way a service records a change in `audit_events`: who (user, API token, how they came in),
 * what, and the request it came with. Call it inside the change's transaction.
 */
export async function writeAuditEvent({ db, actor, action, entityType, entityId, contractId, requestId, before, after }: WriteAuditEventOptions): Promise<void> {
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
    },
  });
}
