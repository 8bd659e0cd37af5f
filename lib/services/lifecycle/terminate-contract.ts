import type { PrismaClient, Tx } from "@/lib/db";
import { now as clockNow } from "@/lib/clock";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { lifecycleAt, terminationOf } from "@/lib/domain/lifecycle";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { lifecycleColumnsOf } from "./lifecycle-columns";
import { staffEndColumns } from "./staff-end-columns";
import { lifecycleFactsOf } from "./lifecycle-row";
import { lockSignedLifecycle } from "./lock-signed-lifecycle";

/**
 * `POST …/terminate`: staff end a signed contract early (docs/lifecycle.md "Notice and
 * termination"), now (no `date`) or at the end of `date`. In one transaction under the row lock:
 * 404 → 403 → 409 unless signed; the lifecycle is brought up to now; a date before today (in the
 * workspace's time zone) is a 400 naming `date`; a contract that ended, or ends by then anyway, a
 * 409 `lifecycle_action_refused`. Audited as `contract.terminate`; ending now also writes
 * `contract.end` (the transition, as the job writes it for a later date). Both are webhook events.
 */
export async function terminateContract({
  db,
  actor,
  contractId,
  date,
  linkOrigin = "",
  requestId,
}: {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  /** The last day in force; undefined: now. */
  date?: string | undefined;
  linkOrigin?: string;
  requestId?: string;
}): Promise<{ endDate: string }> {
  const result = await db.$transaction(async (tx: Tx) => {
    const now = clockNow();
    const row = await lockSignedLifecycle(tx, { actor, contractId, now, linkOrigin, action: "terminated" });
    const facts = lifecycleFactsOf(row);
    const termination = terminationOf(facts, now, date ?? null);
    if ("dateProblem" in termination) {
      throw new DomainError("validation_failed", `date: ${termination.dateProblem}; ${termination.hint}`, { parameterProblems: { date: [termination.dateProblem] } });
    }
    if ("refusal" in termination) throw new DomainError("lifecycle_action_refused", termination.refusal);
    const life = lifecycleAt({ ...facts, endOn: termination.endOn, endAt: termination.endAt, endKind: "terminated" }, now);
    await tx.contract.update({
      where: { id: contractId },
      data: { ...staffEndColumns(termination), endKind: "terminated", ...lifecycleColumnsOf(row, life), updatedAt: now },
    });
    const audit = (action: string, after: Prisma.InputJsonObject) =>
      writeAuditEvent({
        db: tx,
        actor,
        action,
        entityType: "contract",
        entityId: contractId,
        contractId,
        workspaceId: row.workspaceId,
        requestId,
        before: { state: row.lifecycleState, sub_state: row.lifecycleSubState, end_date: row.endsOn?.toISOString().slice(0, 10) ?? null },
        after,
      });
    await audit("contract.terminate", { state: life.state, sub_state: life.subState, end_date: termination.endDate, ...(date === undefined ? {} : { date }) });
    if (life.state === "ended") await audit("contract.end", { state: life.state, sub_state: life.subState, end_date: life.endDate, at: now.toISOString() });
    return { endDate: termination.endDate };
  });
  mailQueued();
  return result;
}
