// What the lifecycle's operations read of a contract (docs/lifecycle.md): its term, what staff gave
// (notice, termination), the lifecycle as last stored, the warnings sent, and its workspace's time
// zone and default warning days; and the facts lib/domain/lifecycle.ts computes the state from.
import type { Prisma } from "@/lib/generated/prisma/client";
import { reachedAtOf, type TLifeFacts, type TTerm } from "@/lib/domain/lifecycle";
import { CONTRACT_FIELDS } from "@/lib/schemas/contract";
import { sectionSelectOf, sectionValuesOf } from "@/lib/schemas/field-table";

export const LIFECYCLE_SELECT = {
  id: true,
  name: true,
  state: true,
  workspaceId: true,
  createdById: true,
  ...sectionSelectOf(CONTRACT_FIELDS, "lifecycle_settings"),
  signedOn: true,
  endOn: true,
  endAt: true,
  endKind: true,
  lifecycleState: true,
  lifecycleSubState: true,
  periodStartDate: true,
  periodEndDate: true,
  endsOn: true,
  noticeDeadline: true,
  renewals: true,
  renewedAt: true,
  lifecycleDueAt: true,
  deadlineWarningDays: true,
  noticeWarnedFor: true,
  endWarnedFor: true,
  workspace: { select: { timeZone: true, deadlineWarningDays: true } },
} as const satisfies Prisma.ContractSelect;

export type TLifecycleRow = Prisma.ContractGetPayload<{ select: typeof LIFECYCLE_SELECT }>;

/** A `date` column's value as `YYYY-MM-DD` (Prisma reads it as midnight UTC). */
const day = (value: Date | null): string | null => (value === null ? null : value.toISOString().slice(0, 10));

/**
 * What lifecycleAt computes from: the term, the day it was signed (`signedOn`, when not stored yet),
 * staff's end, and the instant and notice deadline the stored lifecycle reached (it never goes back
 * from there).
 */
export function lifecycleFactsOf(row: TLifecycleRow, signedOn: string | null = day(row.signedOn)): TLifeFacts {
  if (signedOn === null) throw new Error(`contract ${row.id} has no signing day`);
  return {
    term: sectionValuesOf(CONTRACT_FIELDS, "lifecycle_settings", row) as unknown as TTerm,
    timeZone: row.workspace.timeZone,
    signedOn,
    endOn: day(row.endOn),
    endAt: row.endAt,
    endKind: row.endKind,
    reachedAt: reachedAtOf({ state: row.lifecycleState, periodStartDate: day(row.periodStartDate), endDate: day(row.endsOn) }, row.workspace.timeZone),
    noticeDeadlineReached: day(row.noticeDeadline),
  };
}
