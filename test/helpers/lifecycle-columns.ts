// Test-only: writes a signed contract's stored lifecycle columns (contracts.lifecycle_state, ends_on,
// notice_deadline, …) straight to the row, so the list's filters and sorts, the dashboard, the CSV
// and the calendar feed can be tested on exact dates without running the lifecycle job through
// months. The product sets these columns at signing and in its lifecycle job (lib/services/lifecycle);
// these tests only read them.
import type { PrismaClient } from "@/lib/db";
import type { TLifecycleState, TLifecycleSubState } from "@/lib/domain/lifecycle";

export interface TLifecycleColumns {
  state: TLifecycleState;
  subState?: TLifecycleSubState | null;
  /** `YYYY-MM-DD`: `lifecycle_state.end_date`. */
  endsOn?: string | null;
  /** `YYYY-MM-DD`: `lifecycle_state.notice_deadline`. */
  noticeDeadline?: string | null;
  renewedAt?: string | null;
  renewals?: number;
  periodStartDate?: string | null;
  periodEndDate?: string | null;
}

const day = (date: string | null | undefined) => (date ? new Date(`${date}T00:00:00Z`) : null);

export async function setLifecycleColumnsForTest(db: PrismaClient, contractId: number, columns: TLifecycleColumns): Promise<void> {
  await db.contract.update({
    where: { id: contractId },
    data: {
      state: "signed",
      lifecycleState: columns.state,
      lifecycleSubState: columns.subState ?? null,
      endsOn: day(columns.endsOn),
      noticeDeadline: day(columns.noticeDeadline),
      renewedAt: columns.renewedAt ? new Date(columns.renewedAt) : null,
      renewals: columns.renewals ?? 0,
      periodStartDate: day(columns.periodStartDate),
      periodEndDate: day(columns.periodEndDate),
    },
  });
}
