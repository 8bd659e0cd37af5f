"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { DataTable, type TColumn } from "@/components/data-table";
import { PaginatedTable } from "@/components/paginated-table";
import { EmptyState, ErrorState } from "@/components/states";
import { API_MAX_LIMIT, API_MAX_OFFSET } from "@/lib/client/v1";
import { defineUrlState, param, useUrlState } from "@/lib/client/url-state";
import type { TDataField } from "@/lib/schemas/data-field";
import { dataFieldsQuery } from "./contract-queries";
import { DataFieldValue } from "./data-field-value";

// Prefixed, so they cannot clash with params another part of the page may use one day.
const dataFieldsUrlState = defineUrlState({
  fields_limit: param.integer(1, API_MAX_LIMIT, API_MAX_LIMIT),
  fields_offset: param.integer(0, API_MAX_OFFSET, 0),
});

/** The table's columns; with `edit`, each value is edited in place (draft and pending contracts). */
function columns(edit: { contractId: number } | null): readonly TColumn<TDataField>[] {
  return [
    { id: "name", header: "Name", cell: (field) => field.name, isRowHeader: true, className: "w-1/4" },
    {
      id: "value",
      header: "Value",
      cell: (field) => <DataFieldValue contractId={edit?.contractId ?? 0} field={field} editable={edit !== null} />,
    },
    { id: "description", header: "Description", cell: (field) => field.description || <span className="text-slate-600">—</span> },
  ];
}

const empty = <EmptyState title="No data fields">This contract&apos;s template defines none.</EmptyState>;

/**
 * The contract's data fields. The first request asks for the API's largest page (100): for the
 * usual handful of fields that is the whole list, the same answer `limit=all` gives, but bounded,
 * so the table shows them all without paging. Only a contract with more gets the pagination.
 */
export function DataFieldsSection({ contractId, editable }: { contractId: number; editable: boolean }) {
  const { state, hrefWith } = useUrlState(dataFieldsUrlState);
  const page = { limit: state.fields_limit, offset: state.fields_offset };
  const query = useQuery({ ...dataFieldsQuery(contractId, page), placeholderData: keepPreviousData });
  const COLUMNS = useMemo(() => columns(editable ? { contractId } : null), [contractId, editable]);
  const paged = page.offset > 0 || (query.data !== undefined && query.data.count > query.data.data.length);

  return (
    // Not a named region: the table inside already is one, under the same name.
    <section className="mt-10">
      <h2 id="data-fields-title" className="text-lg font-semibold text-slate-900">
        Data fields
      </h2>
      {editable ? <p className="mt-1 text-sm text-slate-600">Select a value to change it; Enter saves, Escape cancels.</p> : null}
      <div className="mt-3">
        {paged ? (
          <PaginatedTable
            caption="Data fields"
            hideCaption
            columns={COLUMNS}
            rowKey={(field) => field.id}
            query={query}
            limit={page.limit}
            hrefFor={(next) => hrefWith({ fields_limit: next.limit, fields_offset: next.offset })}
            itemLabel="data fields"
            paginationLabel="Data field pages"
            empty={empty}
          />
        ) : query.isError ? (
          <ErrorState title="Could not load the data fields." error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
        ) : (
          <DataTable caption="Data fields" hideCaption columns={COLUMNS} rows={query.data?.data} rowKey={(field) => field.id} skeletonRows={3} empty={empty} />
        )}
      </div>
    </section>
  );
}
