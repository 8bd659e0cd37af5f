"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { dayWords } from "@/components/calendar-date";
import { PaginatedTable } from "@/components/paginated-table";
import { EmptyState } from "@/components/states";
import { takeFlash } from "@/lib/client/flash";
import { sortFromParam, sortToParam, toggleSort, useUrlState } from "@/lib/client/url-state";
import { pathOf, queryString, v1Queries } from "@/lib/client/v1";
import { contractColumns } from "./contract-columns";
import { ContractFilters } from "./contract-filters";
import { SEARCH_MATCH_LIMIT } from "@/lib/schemas/limits";
import { contractsPageSort, contractsUrlState, type TContractSortKey } from "./contracts-url-state";

const SEARCH_LIMIT_WORDS = SEARCH_MATCH_LIMIT.toLocaleString("en");

export function ContractsList() {
  const { state: url, hrefWith, push, replace } = useUrlState(contractsUrlState);
  const state = { ...url, sort: contractsPageSort(url) };
  // A message left by the page we came from ("Contract … was deleted."), shown once.
  const [flash, setFlash] = useState<string | null>(null);
  useEffect(() => {
    // Only a message sets it: a second run (React's development double effects) finds none and keeps it.
    const message = takeFlash();
    if (message !== null) setFlash(message);
  }, []);
  // While searching, each item says where it matched (`_search`: the list's "Matched" lines).
  const contracts = useQuery({ ...v1Queries.contracts({ ...state, matches: state.q !== undefined ? "true" : undefined }), placeholderData: keepPreviousData });
  const workspaces = useQuery(v1Queries.allWorkspaces());

  const columns = useMemo(
    () => contractColumns(new Map(workspaces.data?.map((workspace) => [workspace.id, workspace.name]))),
    [workspaces.data],
  );
  const conditions = conditionWords(state);
  const lifecycle = { lifecycle_state: state.lifecycle_state, ends_after: state.ends_after, ends_before: state.ends_before, notice_deadline_after: state.notice_deadline_after, notice_deadline_before: state.notice_deadline_before };
  const filtered =
    state.q !== undefined || state.workspace_id !== undefined || state.state !== undefined || Object.values(lifecycle).some((v) => v !== undefined) || conditions.length > 0;
  // Whatever selects or orders the rows differently starts again at the first page.
  const clearHref = filtered ? hrefWith({ q: undefined, workspace_id: undefined, state: undefined, ...NO_LIFECYCLE, ...NO_CONDITIONS, offset: 0 }) : null;
  // The same list as CSV: every row of these filters in this order (the API's query without the page).
  const csvHref = `${pathOf("exportContractsCsv", {})}${queryString({ ...state, limit: undefined, offset: undefined })}`;

  return (
    <div className="mt-6 space-y-4">
      {/* Always in the page, so the message is announced when it appears. */}
      <div role="status" aria-live="polite">
        {flash ? <p className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">{flash}</p> : null}
      </div>
      <ContractFilters
        q={state.q}
        workspaceId={state.workspace_id}
        state={state.state}
        lifecycle={lifecycle}
        workspaces={workspaces.data}
        onChange={(filters) => push({ ...filters, offset: 0 })}
        // Typing replaces the history entry rather than adding one per pause.
        // A new search shows its best matches first (an explicit order stays).
        onSearch={(q) => replace({ q, offset: 0, ...(url.sort === "relevance" ? { sort: undefined } : {}) })}
        clearHref={clearHref}
      />
      <p className="text-sm">
        <a href={csvHref} download className="font-medium text-blue-700 underline hover:text-blue-900">
          Download CSV
        </a>{" "}
        <span className="text-slate-600">(every contract of these filters, in this order)</span>
      </p>
      {conditions.length > 0 ? (
        <p className="text-sm text-slate-700">
          Only contracts {conditions.join(", ")}.{" "}
          <Link href={hrefWith({ ...NO_CONDITIONS, offset: 0 })} className="font-medium text-blue-700 underline hover:text-blue-900">
            Show all
          </Link>
        </p>
      ) : null}
      {contracts.data?.count_exact === false ? (
        <p className="text-sm text-slate-700">
          More than {SEARCH_LIMIT_WORDS} contracts match. The list holds the newest {SEARCH_LIMIT_WORDS}; add a word to narrow the
          search.
        </p>
      ) : null}
      <PaginatedTable
        caption="Contracts"
        hideCaption
        itemLabel="contracts"
        columns={columns}
        rowKey={(contract) => contract.id}
        query={contracts}
        limit={state.limit}
        hrefFor={hrefWith}
        sort={state.sort === "relevance" ? null : sortFromParam(state.sort)}
        onSort={(key) => {
          // Names read best A→Z first; deadlines and ends soonest first; other dates newest first.
          const first = key === "name" || key === "end_date" || key === "notice_deadline" ? "ascending" : "descending";
          const current = state.sort === "relevance" ? null : sortFromParam(state.sort);
          push({ sort: sortToParam(toggleSort(current, key as TContractSortKey, first)), offset: 0 });
        }}
        empty={
          clearHref ? (
            <EmptyState title="No contracts match these filters">
              <Link href={clearHref} className="font-medium text-blue-700 underline hover:text-blue-900">
                Clear filters
              </Link>
            </EmptyState>
          ) : (
            <EmptyState title="No contracts yet">
              <Link href="/contracts/new" className="font-medium text-blue-700 underline hover:text-blue-900">
                Create a contract
              </Link>
            </EmptyState>
          )
        }
      />
    </div>
  );
}

/** The dashboard's filters (docs/web-app.md "Dashboard"), which the form above does not offer. */
const NO_CONDITIONS = { updated_before: undefined, expires_before: undefined, state_updated_after: undefined, delivery_failed: undefined, awaiting_me: undefined, renewed_after: undefined };
const NO_LIFECYCLE = { lifecycle_state: undefined, ends_after: undefined, ends_before: undefined, notice_deadline_after: undefined, notice_deadline_before: undefined };

const dateWords = (iso: string) => new Date(iso).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });

/** The dashboard's filters in the URL, as words. */
function conditionWords(state: {
  updated_before?: string | undefined;
  expires_before?: string | undefined;
  state_updated_after?: string | undefined;
  delivery_failed?: "true" | undefined;
  awaiting_me?: "true" | undefined;
  renewed_after?: string | undefined;
}): string[] {
  return [
    // The dashboard's months are UTC's (its "Renewed this month" link): the UTC day, in any zone.
    state.renewed_after ? `renewed since ${dayWords(new Date(state.renewed_after).toISOString().slice(0, 10))}` : null,
    state.awaiting_me ? "waiting for your signature" : null,
    state.delivery_failed ? "with an invitation that could not be delivered" : null,
    state.expires_before ? `whose signing period ends before ${dateWords(state.expires_before)}` : null,
    state.state_updated_after ? `whose state changed since ${dateWords(state.state_updated_after)}` : null,
    state.updated_before ? `not changed since ${dateWords(state.updated_before)}` : null,
  ].filter((words): words is string => words !== null);
}
