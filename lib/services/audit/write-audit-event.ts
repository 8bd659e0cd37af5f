import type { Tx } from "@/lib/db";
import type { TAuditActor } from "@/lib/domain/actor";
import type { Sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";

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
 * The one way a service records a change in `audit_events`: who (user, API token, how they came in,
 * and a person's name and e-mail as they are at the time), what, and the request it came with. Call it inside the change's transaction. The audit trail is also
 * the webhooks' outbox (lib/services/webhooks): an event committed here is delivered to subscribers.
 */
export async function writeAuditEvent(options: WriteAuditEventOptions): Promise<void> {
  const workspaceId = await workspaceOf(options.db, options);
  await options.db.auditEvent.create({ data: auditEventData({ ...options, workspaceId }) });
}

/** The row of an audit event, once its workspace is known. */
function auditEventData({ actor, action, entityType, entityId, contractId, requestId, before, after, workspaceId }: Omit<WriteAuditEventOptions, "db" | "workspaceId"> & { workspaceId: number | null }) {
  return {
    action,
    entityType,
    entityId,
    contractId: contractId ?? null,
    actorUserId: actor.kind === "user" ? actor.userId : null,
    apiTokenId: actor.kind === "user" || actor.kind === "anonymous_admin" ? actor.apiTokenId : null,
    via: actor.kind === "signer" ? ("signing_link" as const) : actor.kind === "system" ? ("system" as const) : actor.via,
    requestId: requestId ?? null,
    ...(before === undefined ? {} : { before }),
    ...(after === undefined ? {} : { after }),
    workspaceId,
    // Who acted as they are now, kept: a later rename does not rewrite the trail.
    actorName: actor.kind === "user" || actor.kind === "signer" ? actor.name : null,
    actorEmail: actor.kind === "user" || actor.kind === "signer" ? actor.email : null,
  } satisfies Prisma.AuditEventUncheckedCreateInput;
}

/** The column and SQL type of each field of `auditEventData`. */
const AUDIT_EVENT_COLUMNS = {
  action: ["action", "text"],
  entityType: ["entity_type", "text"],
  entityId: ["entity_id", "int"],
  contractId: ["contract_id", "int"],
  actorUserId: ["actor_user_id", "int"],
  apiTokenId: ["api_token_id", "int"],
  via: ["via", "auth_via"],
  requestId: ["request_id", "text"],
  before: ["before", "jsonb"],
  after: ["after", "jsonb"],
  workspaceId: ["workspace_id", "int"],
  actorName: ["actor_name", "text"],
  actorEmail: ["actor_email", "text"],
} as const satisfies Record<keyof ReturnType<typeof auditEventData>, readonly [string, string]>;

/**
 * The same event as an `INSERT … SELECT … FROM from` for a statement that writes the change itself
 * (a data-modifying CTE named `from`: one event per row it writes), with its values as parameters
 * of that statement. `workspaceId` must be given.
 */
export function auditEventInsertSql(from: string, options: Omit<WriteAuditEventOptions, "db" | "workspaceId"> & { workspaceId: number }): Sql {
  const entries = Object.entries(auditEventData(options)) as [keyof typeof AUDIT_EVENT_COLUMNS, unknown][];
  const columns = entries.map(([field]) => AUDIT_EVENT_COLUMNS[field][0]).join(", ");
  const values = entries.map(([field, value]) => {
    const type = AUDIT_EVENT_COLUMNS[field][1];
    return Prisma.sql`${type === "jsonb" ? JSON.stringify(value) : value}::${Prisma.raw(type)}`;
  });
  return Prisma.sql`INSERT INTO audit_events (${Prisma.raw(columns)}) SELECT ${Prisma.join(values, ", ")} FROM ${Prisma.raw(from)}`;
}
