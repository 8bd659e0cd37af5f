"use client";

import Link from "next/link";
import { CONTRACT_STATE_LABELS } from "@/components/badge";
import { CONTRACT_STATES, type TContractState } from "@/lib/domain/enums";
import type { TWorkspace } from "@/lib/schemas";
import { ContractSearch } from "./contract-search";

const selectClass = "mt-1 block w-56 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";

export interface TContractFiltersProps {
  q: string | undefined;
  workspaceId: number | undefined;
  state: TContractState | undefined;
  /** The workspaces the user can see; undefined while they load. */
  workspaces: readonly TWorkspace[] | undefined;
  onChange: (filters: { workspace_id?: number | undefined; state?: TContractState | undefined }) => void;
  /** The name search changed (debounced); undefined when the box was emptied. */
  onSearch: (q: string | undefined) => void;
  /** The URL of the list without filters, or null when none is set. */
  clearHref: string | null;
}

/**
 * Search by name, filters by workspace and state. A choice applies at once (the table below updates, and the pagination
 * summary announces the new total), so there is no Apply button to miss.
 */
export function ContractFilters({ q, workspaceId, state, workspaces, onChange, onSearch, clearHref }: TContractFiltersProps) {
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
      {clearHref ? (
        <Link href={clearHref} className="pb-2 text-sm font-medium text-blue-700 underline hover:text-blue-900">
          Clear filters
        </Link>
      ) : null}
    </form>
  );
}
