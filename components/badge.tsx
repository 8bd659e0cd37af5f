import type { ReactNode } from "react";
import type { TContractState } from "@/lib/domain/enums";

export type TBadgeTone = "neutral" | "info" | "warning" | "danger" | "success";

// 800-on-100 pairs: readable (WCAG AA) on white and on the table's row hover.
const TONES: Record<TBadgeTone, string> = {
  neutral: "bg-slate-100 text-slate-800 ring-slate-300",
  info: "bg-blue-100 text-blue-800 ring-blue-300",
  warning: "bg-amber-100 text-amber-900 ring-amber-300",
  danger: "bg-red-100 text-red-800 ring-red-300",
  success: "bg-emerald-100 text-emerald-800 ring-emerald-300",
};

/** A short status label. The words carry the meaning; the colour only helps scanning. */
export function Badge({ tone = "neutral", children }: { tone?: TBadgeTone; children: ReactNode }) {
  return (
    <span className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[tone]}`}>
      {children}
    </span>
  );
}

export const CONTRACT_STATE_LABELS: Record<TContractState, string> = {
  draft: "Draft",
  pending: "Pending",
  overdue: "Overdue",
  signed: "Signed",
  declined: "Declined",
  withdrawn: "Withdrawn",
};

const CONTRACT_STATE_TONES: Record<TContractState, TBadgeTone> = {
  draft: "neutral",
  pending: "info",
  overdue: "warning",
  signed: "success",
  declined: "danger",
  withdrawn: "neutral",
};

export function ContractStateBadge({ state }: { state: TContractState }) {
  return <Badge tone={CONTRACT_STATE_TONES[state]}>{CONTRACT_STATE_LABELS[state]}</Badge>;
}
