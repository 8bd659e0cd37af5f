import type { TLifecycle } from "@/lib/domain/lifecycle";

/** A lifecycle's values by their API names (`lifecycle_state` of the contract's answer), as audit events record them. */
export const lifecycleValuesOf = (life: Pick<TLifecycle, "state" | "subState" | "periodStartDate" | "periodEndDate" | "endDate" | "noticeDeadline" | "renewals">) => ({
  state: life.state,
  sub_state: life.subState,
  period_start_date: life.periodStartDate,
  period_end_date: life.periodEndDate,
  end_date: life.endDate,
  notice_deadline: life.noticeDeadline,
  renewals: life.renewals,
});
