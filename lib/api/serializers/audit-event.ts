import { auditChanges } from "@/lib/domain/audit-changes";
import type { TAuditActor, TAuditEvent } from "@/lib/schemas";
import type { TAuditEventRow } from "@/lib/services/audit/audit-event-row";

import { isoTime } from "./time";

/** Who made a change, by name; nothing secret (a token's name, never its hash or prefix). */
function serializeActor(row: TAuditEventRow): TAuditActor {
  if (row.actorUserId !== null) {
    const token = row.via === "api_token" && row.apiTokenId !== null ? { id: row.apiTokenId, name: row.apiToken?.name ?? `API token ${row.apiTokenId}` } : null;
    return {
      type: "user",
      id: row.actorUserId,
      // A user row is never deleted while events name it, but say so plainly if one ever is.
      name: row.actorUser?.name ?? `User ${row.actorUserId}`,
      ...(row.actorUser ? { email: row.actorUser.email } : {}),
      ...(token ? { api_token: token } : {}),
    };
  }
  if (row.apiTokenId !== null) return { type: "api_token", id: row.apiTokenId, name: row.apiToken?.name ?? `API token ${row.apiTokenId}` };
  if (row.via === "signing_link") return { type: "signer", id: row.signer?.id ?? null, name: row.signer?.name ?? "Signer", ...(row.signer?.email ? { email: row.signer.email } : {}) };
  return { type: "system", id: null, name: "System" };
}

/** docs/events.md. */
export function serializeAuditEvent(row: TAuditEventRow): TAuditEvent {
  return {
    id: row.id,
    created_time: isoTime(row.createdAt),
    action: row.action,
    entity_type: row.entityType,
    entity_id: row.entityId,
    actor: serializeActor(row),
    via: row.via,
    changes: auditChanges(row.before, row.after),
  } satisfies TAuditEvent;
}
