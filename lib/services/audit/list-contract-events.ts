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
 * contract's events stay in the table but are not readable), newest first, with the names of the
 * users and API tokens that made each change.
 */
export async function listContractEvents({ db, actor, contractId, pagination }: ListContractEventsOptions): Promise<{ count: number; rows: TAuditEventRow[] }> {
  await findVisibleContract(db, actor, contractId);
  const where = { contractId };
  const [count, events] = await Promise.all([
    db.auditEvent.count({ where }),
    db.auditEvent.findMany({ where, select: AUDIT_EVENT_SELECT, orderBy: { id: "desc" }, ...pageArgs(pagination) }),
  ]);
  const userIds = [...new Set(events.flatMap((e) => (e.actorUserId === null ? [] : [e.actorUserId])))];
  const tokenIds = [...new Set(events.flatMap((e) => (e.apiTokenId === null ? [] : [e.apiTokenId])))];
  // A signing link's events name no user; the participant they are about is the one who signed.
  const signerIds = [...new Set(events.flatMap((e) => (e.via === "signing_link" && e.entityType === "participant" ? [e.entityId] : [])))];
  const [users, tokens, signers] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true } }) : [],
    tokenIds.length ? db.apiToken.findMany({ where: { id: { in: tokenIds } }, select: { id: true, name: true } }) : [],
    signerIds.length ? db.participant.findMany({ where: { id: { in: signerIds }, party: { contractId } }, select: { id: true, name: true } }) : [],
  ]);
  const userById = new Map(users.map((u) => [u.id, u]));
  const tokenById = new Map(tokens.map((t) => [t.id, t]));
  const signerById = new Map(signers.map((p) => [p.id, p]));
  const rows = events.map((event) => ({
    ...event,
    actorUser: event.actorUserId === null ? null : (userById.get(event.actorUserId) ?? null),
    apiToken: event.apiTokenId === null ? null : (tokenById.get(event.apiTokenId) ?? null),
    signer: event.via === "signing_link" && event.entityType === "participant" ? (signerById.get(event.entityId) ?? null) : null,
  }));
  return { count, rows };
}
