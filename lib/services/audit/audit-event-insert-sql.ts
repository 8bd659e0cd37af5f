import type { Sql } from "@/lib/db/sql";
import type { TAuditActor } from "@/lib/domain/actor";
import { Prisma } from "@/lib/generated/prisma/client";
import { now } from "@/lib/clock";

/** What an audit event records, by the names the services use. */
export interface TAuditEventFields {
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

/** The row of an audit event, once its workspace is known. */
function auditEventData({ actor, action, entityType, entityId, contractId, requestId, before, after, workspaceId }: TAuditEventFields & { workspaceId: number | null }) {
  return {
    // The time of the change (lib/clock.ts), not the column default: under `atTime` the trail tells the same story as the rows.
    createdAt: now(),
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
  createdAt: ["created_at", "timestamptz"],
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
 * An audit event as an `INSERT … SELECT … FROM from`, its values as parameters: one event per row of
 * `from`, a one-row relation for one event (writeAuditEvent) or a data-modifying CTE of a statement
 * that writes the change itself (updateParticipant). The one way an event is written.
 */
export function auditEventInsertSql(from: string, options: TAuditEventFields & { workspaceId: number | null }): Sql {
  const entries = Object.entries(auditEventData(options)) as [keyof typeof AUDIT_EVENT_COLUMNS, unknown][];
  const columns = entries.map(([field]) => AUDIT_EVENT_COLUMNS[field][0]).join(", ");
  const values = entries.map(([field, value]) => {
    const type = AUDIT_EVENT_COLUMNS[field][1];
    return Prisma.sql`${type === "jsonb" ? JSON.stringify(value) : value}::${Prisma.raw(type)}`;
  });
  return Prisma.sql`INSERT INTO audit_events (${Prisma.raw(columns)}) SELECT ${Prisma.join(values, ", ")} FROM ${Prisma.raw(from)}`;
}
