"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/badge";
import type { TColumn } from "@/components/data-table";
import { PaginatedTable } from "@/components/paginated-table";
import { EmptyState } from "@/components/states";
import { pagedListUrlState, useUrlState } from "@/lib/client/url-state";
import { v1Queries } from "@/lib/client/v1";
import type { TUser } from "@/lib/schemas";

const notSet = <span className="text-slate-500">Not set</span>;

const columns: TColumn<TUser>[] = [
  { id: "name", header: "Name", isRowHeader: true, cell: (user) => user.name },
  { id: "email", header: "E-mail", cell: (user) => user.email },
  { id: "title", header: "Title", cell: (user) => user.title || notSet },
  { id: "phone", header: "Phone", className: "whitespace-nowrap", cell: (user) => user.phone_number || notSet },
  { id: "role", header: "Role", cell: (user) => (user.is_admin ? <Badge tone="info">Admin</Badge> : "Member") },
  {
    id: "status",
    header: "Status",
    cell: (user) => (user.active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>),
  },
];

export function UsersTable() {
  const { state, hrefWith } = useUrlState(pagedListUrlState);
  const users = useQuery({ ...v1Queries.users(state), placeholderData: keepPreviousData });
  return (
    <PaginatedTable
      caption="Users"
      hideCaption
      itemLabel="users"
      columns={columns}
      rowKey={(user) => user.id}
      query={users}
      limit={state.limit}
      hrefFor={hrefWith}
      empty={<EmptyState title="No users to show" />}
    />
  );
}
