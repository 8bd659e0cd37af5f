import { addDaysTo, startOf } from "@/lib/domain/calendar";
import type { TLifecycle } from "@/lib/domain/lifecycle";
import type { TLifecycleRow } from "./lifecycle-row";
import { pendingWarnings } from "./pending-warnings";

const column = (date: string | null): Date | null => (date === null ? null : new Date(`${date}T00:00:00.000Z`));

/**
 * The stored lifecycle columns for `life`, and `lifecycleDueAt`: the lifecycle job's next turn for
 * the contract, the earliest of its next change (start, renewal, end), the day after its notice
 * deadline (the next deadline is stored then) and the owner's next warning not sent yet (by
 * `row`'s `noticeWarnedFor`/`endWarnedFor`, as they will be stored). Null when nothing is ahead.
 */
export function lifecycleColumnsOf(row: Pick<TLifecycleRow, "deadlineWarningDays" | "noticeWarnedFor" | "endWarnedFor" | "workspace">, life: TLifecycle) {
  const instants = [
    life.nextChangeAt,
    life.noticeDeadline === null ? null : startOf(addDaysTo(life.noticeDeadline, 1), row.workspace.timeZone),
    ...pendingWarnings(row, life).map((w) => w.at),
  ].filter((x): x is Date => x !== null);
  const dueAt = instants.length === 0 ? null : new Date(Math.min(...instants.map((x) => x.getTime())));
  return {
    lifecycleState: life.state,
    lifecycleSubState: life.subState,
    periodStartDate: column(life.periodStartDate),
    periodEndDate: column(life.periodEndDate),
    endsOn: column(life.endDate),
    noticeDeadline: column(life.noticeDeadline),
    renewals: life.renewals,
    lifecycleDueAt: dueAt,
  };
}
