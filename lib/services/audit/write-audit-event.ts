import type { Tx } from "@/lib/db";
import { auditEventInsertSql, type TAuditEventFields } from "@/lib/services/audit/audit-event-insert-sql";

export interface WriteAuditEventOptions extends TAuditEventFields {
  db: Tx;
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
  await options.db.$executeRaw(auditEventInsertSql("(SELECT 1) AS one", { ...options, workspaceId }));
}
