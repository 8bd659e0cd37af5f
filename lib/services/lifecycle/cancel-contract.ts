import type { PrismaClient, Tx } from "@/lib/db";
import { now as clockNow } from "@/lib/clock";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { lifecycleAt, noticeRefusal } from "@/lib/domain/lifecycle";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { mailQueued } from "@/lib/services/mail/mail-wakeup";
import { lifecycleColumnsOf } from "./lifecycle-columns";
import { staffEndColumns } from "./staff-end-columns";
import { lifecycleFactsOf } from "./lifecycle-row";
import { lockSignedLifecycle } from "./lock-signed-lifecycle";

/**
 * `POST …/cancel`: staff give notice (docs/lifecycle.md "Notice and termination"). In one
 * transaction under the contract's row lock: 404 → 403 → 409 unless signed; the lifecycle is
 * brought up to now; notice after the deadline (or where notice does not apply) is a 409
 * `lifecycle_action_refused` whose detail is the one sentence lib/domain/lifecycle.ts says (naming
 * the earliest date it can end). Otherwise the contract is `canceled` and ends at the end of its
 * current period; audited as `contract.cancel` (a webhook event). Answers the day it ends.
 */
export async function cancelContract({ db, actor, contractId, linkOrigin = "", requestId }: { db: PrismaClient; actor: Actor; contractId: number; linkOrigin?: string; requestId?: string }): Promise<{ endDate: string }> {
  const result = await db.$transaction(async (tx: Tx) => {
    const now = clockNow();
    const row = await lockSignedLifecycle(tx, { actor, contractId, now, linkOrigin, action: "given notice" });
    const facts = lifecycleFactsOf(row);
    const notice = noticeRefusal(facts, now);
    if ("refusal" in notice) throw new DomainError("lifecycle_action_refused", notice.refusal);
    const life = lifecycleAt({ ...facts, endOn: notice.endOn, endAt: notice.endAt, endKind: "canceled" }, now);
    await tx.contract.update({
      where: { id: contractId },
      data: { ...staffEndColumns(notice), endKind: "canceled", ...lifecycleColumnsOf(row, life), updatedAt: now },
    });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "contract.cancel",
      entityType: "contract",
      entityId: contractId,
      contractId,
      workspaceId: row.workspaceId,
      requestId,
      before: { state: row.lifecycleState, sub_state: row.lifecycleSubState, notice_deadline: row.noticeDeadline?.toISOString().slice(0, 10) ?? null },
      after: { state: life.state, sub_state: life.subState, end_date: notice.endDate },
    });
    return { endDate: notice.endDate };
  });
  mailQueued();
  return result;
}
