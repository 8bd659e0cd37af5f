"use client";

import Link from "next/link";
import { CONTRACT_STATE_LABELS } from "@/components/badge";
import { CONTRACT_STATES, type TContractState } from "@/lib/domain/enums";
import type { TWorkspace } from "@/lib/schemas";
import { ContractSearch } from "./contract-search";
import { CONTRACT_LIFECYCLE_FILTER_VALUES, type TContractLifecycleFilter } from "./contracts-url-state";

/** The lifecycle filter's words: the states, then the sub-states. */
export const LIFECYCLE_FILTER_LABELS: Record<TContractLifecycleFilter, string> = {
  awaiting: "Awaiting start",
  active: "Active",
  ended: "Ended",
  canceled: "Active, notice given",
  terminated: "Ended early (terminated)",
};

/** The lifecycle's filters as the URL and the API name them. */
export interface TLifecycleFilters {
  lifecycle_state?: TContractLifecycleFilter | undefined;
  ends_after?: string | undefined;
  ends_before?: string | undefined;
  notice_deadline_after?: string | undefined;
  notice_deadline_before?: string | undefined;
}

const DATE_FILTERS = [
  { key: "ends_after", label: "Ends on or after" },
  { key: "ends_before", label: "Ends before" },
  { key: "notice_deadline_after", label: "Notice deadline on or after" },
  { key: "notice_deadline_before", label: "Notice deadline before" },
] as const;

const selectClass = "mt-1 block w-56 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";

export interface TContractFiltersProps {
  q: string | undefined;
  workspaceId: number | undefined;
  state: TContractState | undefined;
  /** The workspaces the user can see; undefined while they load. */
  workspaces: readonly TWorkspace[] | undefined;
  lifecycle: TLifecycleFilters;
  onChange: (filters: { workspace_id?: number | undefined; state?: TContractState | undefined } & TLifecycleFilters) => void;
  /** The name search changed (debounced); undefined when the box was emptied. */
  onSearch: (q: string | undefined) => void;
  /** The URL of the list without filters, or null when none is set. */
  clearHref: string | null;
}

/**
 * Search by name, filters by workspace, state, lifecycle and its dates. A choice applies at once (the table below updates, and the pagination
 * summary announces the new total), so there is no Apply button to miss.
 */
export function ContractFilters({ q, workspaceId, state, lifecycle, workspaces, onChange, onSearch, clearHref }: TContractFiltersProps) {
  // A workspace id from a link that is not (or not yet) in the list still needs an option to show as chosen.
  const unknownWorkspace = workspaceId !== undefined && !workspaces?.some((w) => w.id === workspaceId);
  return (
    <form aria-label="Filter contracts" onSubmit={(e) => e.preventDefault()} className="flex flex-wrap items-end gap-4">
      <ContractSearch q={q} onSearch={onSearch} />
      <div>
        <label htmlFor="filter-workspace" className="block text-sm font-medium text-slate-800">
          Workspace
        </label>
        <select
          id="filter-workspace"
          value={workspaceId ?? ""}
          onChange={(e) => onChange({ workspace_id: e.currentTarget.value ? Number(e.currentTarget.value) : undefined })}
          className={selectClass}
        >
          <option value="">All workspaces</option>
          {workspaces?.map((workspace) => (
            <option key={workspace.id} value={workspace.id}>
              {workspace.name}
            </option>
          ))}
          {unknownWorkspace ? <option value={workspaceId}>{workspaces ? `Workspace ${workspaceId}` : "Loading…"}</option> : null}
        </select>
      </div>
      <div>
        <label htmlFor="filter-state" className="block text-sm font-medium text-slate-800">
          State
        </label>
        <select
          id="filter-state"
          value={state ?? ""}
          onChange={(e) => onChange({ state: (e.currentTarget.value || undefined) as TContractState | undefined })}
          className={selectClass}
        >
          <option value="">All states</option>
          {CONTRACT_STATES.map((value) => (
            <option key={value} value={value}>
              {CONTRACT_STATE_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="filter-lifecycle" className="block text-sm font-medium text-slate-800">
          Lifecycle
        </label>
        <select
          id="filter-lifecycle"
          value={lifecycle.lifecycle_state ?? ""}
          onChange={(e) => onChange({ lifecycle_state: (e.currentTarget.value || undefined) as TContractLifecycleFilter | undefined })}
          className={selectClass}
        >
          <option value="">Any</option>
          {CONTRACT_LIFECYCLE_FILTER_VALUES.map((value) => (
            <option key={value} value={value}>
              {LIFECYCLE_FILTER_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      {DATE_FILTERS.map(({ key, label }) => (
        <div key={key}>
          <label htmlFor={`filter-${key}`} className="block text-sm font-medium text-slate-800">
            {label}
          </label>
          {/* A date input gives "" while a date is half typed: only a whole date (or clearing it) applies. */}
          <input
            id={`filter-${key}`}
            type="date"
            value={lifecycle[key] ?? ""}
            onChange={(e) => {
              const value = e.currentTarget.value;
              if (value === "" || /^\d{4}-\d\d-\d\d$/.test(value)) onChange({ [key]: value || undefined });
            }}
            className="mt-1 block rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
          />
        </div>
      ))}
      {clearHref ? (
        <Link href={clearHref} className="pb-2 text-sm font-medium text-blue-700 underline hover:text-blue-900">
          Clear filters
        </Link>
      ) : null}
    </form>
  );
}
