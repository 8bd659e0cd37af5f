import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import type { TPagination } from "@/lib/schemas";
import { AUDIT_EVENT_SELECT, type TAuditEventRow } from "@/lib/services/audit/audit-event-row";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { pageArgs } from "@/lib/services/page-args";

export interface ListContractEventsOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
  pagination: TPagination;
}

/**
 * The audit trail of a contract the actor may see (else 404, as for the contract itself; a deleted
 * contract's events stay in the table but are not readable), newest first, with who made each change
 * as they were then (the stored name and e-mail) and the API tokens' names.
 */
export async function listContractEvents({ db, actor, contractId, pagination }: ListContractEventsOptions): Promise<{ count: number; rows: TAuditEventRow[] }> {
  await findVisibleContract(db, actor, contractId);
  const where = { contractId };
  const [count, events] = await Promise.all([
    db.auditEvent.count({ where }),
    db.auditEvent.findMany({ where, select: AUDIT_EVENT_SELECT, orderBy: { id: "desc" }, ...pageArgs(pagination) }),
  ]);
  // The name and e-mail an event stored are who acted as they were then; only an event without them
  // (one the migration that added them could not name) falls back to the user or participant now.
  const userIds = [...new Set(events.flatMap((e) => (e.actorUserId === null || e.actorName !== null ? [] : [e.actorUserId])))];
  const tokenIds = [...new Set(events.flatMap((e) => (e.apiTokenId === null ? [] : [e.apiTokenId])))];
  const signerIds = [...new Set(events.flatMap((e) => (isSignerEvent(e) && e.actorName === null ? [e.entityId] : [])))];
  const [users, tokens, signers] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true } }) : [],
    tokenIds.length ? db.apiToken.findMany({ where: { id: { in: tokenIds } }, select: { id: true, name: true } }) : [],
    signerIds.length ? db.participant.findMany({ where: { id: { in: signerIds }, party: { contractId } }, select: { id: true, name: true } }) : [],
  ]);
  const userById = new Map(users.map((u) => [u.id, u]));
  const tokenById = new Map(tokens.map((t) => [t.id, t]));
  const signerById = new Map(signers.map((p) => [p.id, p]));
  const rows = events.map((event) => {
    const { actorName, actorEmail } = event;
    const participantId = isSignerEvent(event) ? event.entityId : null;
    return {
      ...event,
      actorUser:
        event.actorUserId === null
          ? null
          : actorName !== null
            ? { id: event.actorUserId, name: actorName, email: actorEmail ?? "" }
            : (userById.get(event.actorUserId) ?? null),
      apiToken: event.apiTokenId === null ? null : (tokenById.get(event.apiTokenId) ?? null),
      signer:
        event.via !== "signing_link"
          ? null
          : actorName !== null
            ? { id: participantId, name: actorName, ...(actorEmail ? { email: actorEmail } : {}) }
            : participantId === null
              ? null
              : (signerById.get(participantId) ?? null),
    };
  });
  return { count, rows };
}

/** An event a participant made through their signing link about themselves (sign, decline, …). */
function isSignerEvent(event: { via: string; entityType: string }): boolean {
  return event.via === "signing_link" && event.entityType === "participant";
}
