"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { TColumn } from "@/components/data-table";
import { PaginatedTable } from "@/components/paginated-table";
import { EmptyState } from "@/components/states";
import { pagedListUrlState, useUrlState } from "@/lib/client/url-state";
import { v1Queries } from "@/lib/client/v1";
import type { TTemplate } from "@/lib/schemas";
import { TemplateOptions } from "./template-options";

const columns: TColumn<TTemplate>[] = [
  { id: "name", header: "Name", isRowHeader: true, className: "min-w-48", cell: (template) => (
      <Link href={`/templates/${template.id}`} className="font-medium text-blue-700 underline">
        {template.name}
      </Link>
    ) },
  {
    id: "type",
    header: "Type",
    cell: (template) => template.template_type?.name ?? <span className="text-slate-500">None</span>,
  },
  {
    id: "workspaces",
    header: "Workspaces",
    cell: (template) =>
      template.workspaces.length === 0 ? (
        <span className="text-slate-500">None of yours</span>
      ) : (
        <ul>
          {template.workspaces.map((workspace) => (
            <li key={workspace.id} className="whitespace-nowrap">
              {workspace.name}
            </li>
          ))}
        </ul>
      ),
  },
  {
    id: "delivery",
    header: "Delivery channels",
    cell: (template) => <TemplateOptions field="delivery_channel" options={template.available_options.delivery_channels} />,
  },
  {
    id: "sign",
    header: "Sign methods",
    cell: (template) => <TemplateOptions field="sign_method" options={template.available_options.sign_methods} />,
  },
  {
    id: "two-step",
    header: "Two-step methods",
    cell: (template) => (
      <TemplateOptions field="two_step_authentication_method" options={template.available_options.two_step_authentication_methods} />
    ),
  },
];

export function TemplatesTable() {
  const { state, hrefWith } = useUrlState(pagedListUrlState);
  const templates = useQuery({ ...v1Queries.templates(state), placeholderData: keepPreviousData });
  return (
    <PaginatedTable
      caption="Templates"
      hideCaption
      itemLabel="templates"
      columns={columns}
      rowKey={(template) => template.id}
      query={templates}
      limit={state.limit}
      hrefFor={hrefWith}
      empty={<EmptyState title="No templates to show" />}
    />
  );
}
