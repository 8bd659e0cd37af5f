"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { TColumn } from "@/components/data-table";
import { PaginatedTable } from "@/components/paginated-table";
import { RelativeTime } from "@/components/relative-time";
import { EmptyState } from "@/components/states";
import { pagedListUrlState, useUrlState } from "@/lib/client/url-state";
import { v1Queries } from "@/lib/client/v1";
import type { TTemplateType } from "@/lib/schemas";

const columns: TColumn<TTemplateType>[] = [
  { id: "name", header: "Name", isRowHeader: true, cell: (type) => type.name },
  {
    id: "description",
    header: "Description",
    className: "min-w-48",
    cell: (type) => type.description || <span className="text-slate-500">Not set</span>,
  },
  { id: "extension", header: "File type", cell: (type) => <code className="font-mono text-xs">{type.extension_type}</code> },
  { id: "created", header: "Created", className: "whitespace-nowrap", cell: (type) => <RelativeTime iso={type.created_time} /> },
  { id: "updated", header: "Updated", className: "whitespace-nowrap", cell: (type) => <RelativeTime iso={type.updated_time} /> },
];

export function TemplateTypesTable() {
  const { state, hrefWith } = useUrlState(pagedListUrlState);
  const types = useQuery({ ...v1Queries.templateTypes(state), placeholderData: keepPreviousData });
  return (
    <PaginatedTable
      caption="Template types"
      hideCaption
      itemLabel="template types"
      columns={columns}
      rowKey={(type) => type.id}
      query={types}
      limit={state.limit}
      hrefFor={hrefWith}
      empty={<EmptyState title="No template types yet" />}
    />
  );
}
