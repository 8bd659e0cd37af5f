"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/badge";
import type { TColumn } from "@/components/data-table";
import { PaginatedTable } from "@/components/paginated-table";
import { countryName } from "@/components/participant-fields/countries";
import { RelativeTime } from "@/components/relative-time";
import { EmptyState } from "@/components/states";
import { pagedListUrlState, useUrlState } from "@/lib/client/url-state";
import { v1Queries } from "@/lib/client/v1";
import type { TWorkspace } from "@/lib/schemas";

const notSet = <span className="text-slate-500">Not set</span>;

const columns: TColumn<TWorkspace>[] = [
  { id: "name", header: "Name", isRowHeader: true, cell: (workspace) => workspace.name },
  { id: "company", header: "Company", cell: (workspace) => workspace.company_name },
  {
    id: "country",
    header: "Country",
    className: "whitespace-nowrap",
    cell: (workspace) => (workspace.country_code ? countryName(workspace.country_code) : notSet),
  },
  { id: "description", header: "Description", className: "min-w-48", cell: (workspace) => workspace.description || notSet },
  {
    id: "create",
    header: "Can create contracts",
    // From the API's own `_permissions`: what this user may do here, not what their role suggests.
    cell: (workspace) => (workspace._permissions["contract:create"] ? <Badge tone="success">Yes</Badge> : <Badge>No</Badge>),
  },
  { id: "created", header: "Created", className: "whitespace-nowrap", cell: (workspace) => <RelativeTime iso={workspace.created_time} /> },
];

export function WorkspacesTable() {
  const { state, hrefWith } = useUrlState(pagedListUrlState);
  const workspaces = useQuery({ ...v1Queries.workspaces(state), placeholderData: keepPreviousData });
  return (
    <PaginatedTable
      caption="Workspaces"
      hideCaption
      itemLabel="workspaces"
      columns={columns}
      rowKey={(workspace) => workspace.id}
      query={workspaces}
      limit={state.limit}
      hrefFor={hrefWith}
      empty={<EmptyState title="You are not a member of any workspace">Ask an administrator to add you to one.</EmptyState>}
    />
  );
}
