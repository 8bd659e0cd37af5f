import { lifecycleValuesOf } from "./lifecycle-values";
import type { Tx } from "@/lib/db";
import { startOf } from "@/lib/domain/calendar";
import { lifecycleAt, type TLifecycle } from "@/lib/domain/lifecycle";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { enqueueEmail } from "@/lib/services/mail/enqueue-email";
import { lifecycleWarningMail } from "@/lib/services/mail/messages";
import { findContractOwner } from "./find-contract-owner";
import { lifecycleColumnsOf } from "./lifecycle-columns";
import { lifecycleFactsOf, type TLifecycleRow } from "./lifecycle-row";
import { pendingWarnings } from "./pending-warnings";

/** At most this many changes are written for one contract in one turn (a daily renewal over 100 years is fewer). */
const MAX_CHANGES = 40_000;

export interface TAdvance {
  /** The lifecycle at `now`, as now stored. */
  life: TLifecycle;
  /** The audit actions written, in order (`contract.activate`, `contract.renew`, `contract.end`). */
  changes: string[];
  /** The owner's warnings queued. */
  warnings: number;
}

const day = (value: Date | null): string | null => (value === null ? null : value.toISOString().slice(0, 10));


/**
 * Brings a signed contract's stored lifecycle up to `now` (docs/lifecycle.md "The job"), inside the
 * caller's transaction, with the contract's row locked by the caller: walks every change between
 * the stored state and `now` in order, each written once as its audit event (and so its webhook
 * event): `contract.activate` (awaiting → active), `contract.renew` (one per period begun: a catch-up
 * of several renewals writes several), `contract.end`. Then the owner's warnings that are due
 * (`contract.notice_warning_send`, `contract.end_warning_send`, each with its mail, marked in
 * `noticeWarnedFor`/`endWarnedFor`), and stores the lifecycle's columns with the job's next turn.
 * Called by the lifecycle job, and by notice and termination before they act, so no change is
 * skipped or written twice whoever comes first.
 */
export async function advanceLifecycle(tx: Tx, row: TLifecycleRow, now: Date, { linkOrigin = "" }: { linkOrigin?: string } = {}): Promise<TAdvance> {
  const facts = lifecycleFactsOf(row);
  const timeZone = facts.timeZone;
  const life = lifecycleAt(facts, now);
  const changes: string[] = [];

  // The walk starts just before the stored period began: the state before it, or (read from the
  // instant the stored lifecycle was reached, TLifeFacts.reachedAt) the stored state itself.
  const storedFrom = day(row.periodStartDate) ?? facts.term.start_date ?? facts.signedOn;
  let at = new Date(startOf(storedFrom, timeZone).getTime() - 1);
  let step = lifecycleAt(facts, at);
  let prev = { state: row.lifecycleState ?? step.state, renewals: row.renewals, subState: row.lifecycleSubState };
  let renewedAt = row.renewedAt;
  for (let n = 0; n < MAX_CHANGES && step.nextChangeAt !== null && step.nextChangeAt.getTime() <= now.getTime(); n++) {
    at = step.nextChangeAt;
    step = lifecycleAt(facts, at);
    const before = { state: prev.state, sub_state: prev.subState, renewals: prev.renewals };
    const write = async (action: string, after: Record<string, unknown>) => {
      changes.push(action);
      await writeAuditEvent({
        db: tx,
        actor: { kind: "system" },
        action,
        entityType: "contract",
        entityId: row.id,
        contractId: row.id,
        workspaceId: row.workspaceId,
        before,
        after: { ...lifecycleValuesOf(step), ...after, at: at.toISOString() },
      });
    };
    if (prev.state === "awaiting" && step.state !== "awaiting") await write("contract.activate", {});
    if (step.state !== "ended" && step.renewals > prev.renewals) {
      renewedAt = at;
      await write("contract.renew", { renewed_time: at.toISOString() });
    }
    if (step.state === "ended" && prev.state !== "ended") await write("contract.end", {});
    prev = { state: step.state, renewals: Math.max(prev.renewals, step.renewals), subState: step.subState };
  }

  // The owner's warnings now due, each once: the mark is stored with the mail, in this transaction.
  const marks = { noticeWarnedFor: row.noticeWarnedFor, endWarnedFor: row.endWarnedFor };
  let warnings = 0;
  const due = pendingWarnings(row, life).filter((w) => w.at.getTime() <= now.getTime());
  const owner = due.length > 0 ? await findContractOwner(tx, row) : null;
  for (const warning of due) {
    const date = new Date(`${warning.date}T00:00:00.000Z`);
    if (warning.kind === "notice") marks.noticeWarnedFor = date;
    else marks.endWarnedFor = date;
    if (!owner) continue;
    const mail = lifecycleWarningMail({ ownerName: owner.name, contractName: row.name, contractId: row.id, kind: warning.kind, date: warning.date, linkOrigin });
    await enqueueEmail({ db: tx, kind: "lifecycle_warning", contractId: row.id, participantId: null, to: owner.email, linkOrigin, ...mail });
    await writeAuditEvent({
      db: tx,
      actor: { kind: "system" },
      action: warning.kind === "notice" ? "contract.notice_warning_send" : "contract.end_warning_send",
      entityType: "contract",
      entityId: row.id,
      contractId: row.id,
      workspaceId: row.workspaceId,
      after: { [warning.kind === "notice" ? "notice_deadline" : "end_date"]: warning.date, days_before: warning.days, to_user_id: owner.id },
    });
    warnings++;
  }

  await tx.contract.update({
    where: { id: row.id },
    data: {
      ...lifecycleColumnsOf({ ...row, ...marks }, life),
      ...marks,
      renewedAt,
      ...(changes.length > 0 ? { updatedAt: now } : {}),
    },
  });
  return { life, changes, warnings };
}
