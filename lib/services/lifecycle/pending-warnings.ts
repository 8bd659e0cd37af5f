import { addDaysTo, instantAt } from "@/lib/domain/calendar";
import type { TLifecycle } from "@/lib/domain/lifecycle";
import type { TLifecycleRow } from "./lifecycle-row";

/** A warning the contract's owner is due: `days` before the notice deadline or the end date `date`, at `at`. */
export interface TWarning {
  kind: "notice" | "end";
  date: string;
  days: number;
  at: Date;
}

/** The hour of the workspace's day the owner's warnings go out. */
export const WARNING_HOUR = 8;

const day = (value: Date | null): string | null => (value === null ? null : value.toISOString().slice(0, 10));

/**
 * The owner's warnings for `life` not sent yet (docs/lifecycle.md "Warnings and reminders"): one
 * `N` days before the notice deadline and one before the end date, at 08:00 in the workspace's time
 * zone, N the contract's `deadlineWarningDays`, else the workspace's (0: none). One whose instant
 * has passed is due now (a deadline closer than N days when the contract was signed still warns).
 */
export function pendingWarnings(row: Pick<TLifecycleRow, "deadlineWarningDays" | "noticeWarnedFor" | "endWarnedFor" | "workspace">, life: TLifecycle): TWarning[] {
  const days = row.deadlineWarningDays ?? row.workspace.deadlineWarningDays;
  if (days <= 0 || life.state === "ended") return [];
  const at = (date: string) => instantAt(addDaysTo(date, -days), WARNING_HOUR, row.workspace.timeZone);
  const warnings: TWarning[] = [];
  if (life.noticeDeadline !== null && day(row.noticeWarnedFor) !== life.noticeDeadline) warnings.push({ kind: "notice", date: life.noticeDeadline, days, at: at(life.noticeDeadline) });
  if (life.endDate !== null && day(row.endWarnedFor) !== life.endDate) warnings.push({ kind: "end", date: life.endDate, days, at: at(life.endDate) });
  return warnings;
}
