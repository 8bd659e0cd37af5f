"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Badge, type TBadgeTone } from "@/components/badge";
import type { TColumn } from "@/components/data-table";
import { PaginatedTable } from "@/components/paginated-table";
import { RelativeTime } from "@/components/relative-time";
import { EmptyState } from "@/components/states";
import { pagedListUrlState, useUrlState } from "@/lib/client/url-state";
import { v1Queries } from "@/lib/client/v1";
import type { TEmailMessage } from "@/lib/schemas";

const STATUS: Record<TEmailMessage["status"], { label: string; tone: TBadgeTone }> = {
  queued: { label: "Queued", tone: "info" },
  sending: { label: "Sending", tone: "info" },
  sent: { label: "Sent", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  kept: { label: "Kept (not sent)", tone: "warning" },
  undeliverable: { label: "Undeliverable", tone: "danger" },
};

const KIND_LABELS: Record<string, string> = {
  invitation: "Invitation to sign",
  two_step_code: "E-mail code",
  signed: "Signed notice",
  declined: "Declined notice",
  reminder: "Reminder",
  sealed: "Signed copy (sealed)",
};

/** The body as text, with the signing links of a kept message as links. */
function BodyText({ message }: { message: TEmailMessage }) {
  if (message.status !== "kept") return <>{message.body}</>;
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of message.body.matchAll(/https?:\/\/[^\s/]+\/sign\/[A-Za-z0-9_-]+/g)) {
    parts.push(message.body.slice(last, match.index));
    parts.push(
      <a key={match.index} href={match[0]} className="font-medium text-blue-700 underline hover:text-blue-900" target="_blank" rel="noreferrer">
        {match[0]}
      </a>,
    );
    last = match.index + match[0].length;
  }
  parts.push(message.body.slice(last));
  return <>{parts}</>;
}

const columns: TColumn<TEmailMessage>[] = [
  {
    id: "subject",
    header: "Message",
    isRowHeader: true,
    className: "min-w-72",
    cell: (m) => (
      <div>
        <p className="font-medium text-slate-900">{m.subject}</p>
        <p className="text-xs text-slate-500">{KIND_LABELS[m.kind] ?? m.kind}</p>
        {m.attachment_file_id !== null && m.contract_id !== null ? (
          <a href={`/v1/contracts/${m.contract_id}/files/${m.attachment_file_id}?download=true`} className="text-sm text-blue-700 underline hover:text-blue-900">
            Attachment: the sealed copy (PDF)
          </a>
        ) : null}
        <details className="mt-1">
          <summary className="cursor-pointer text-sm text-blue-700 hover:text-blue-900">Show text</summary>
          <pre className="mt-2 max-w-xl whitespace-pre-wrap break-words rounded-md bg-slate-50 p-3 font-sans text-sm text-slate-800">
            <BodyText message={m} />
          </pre>
        </details>
      </div>
    ),
  },
  { id: "to", header: "Recipient", cell: (m) => m.to },
  {
    id: "status",
    header: "Status",
    cell: (m) => (
      <span className="flex flex-col items-start gap-1">
        <Badge tone={STATUS[m.status].tone}>{STATUS[m.status].label}</Badge>
        {m.attempts > 1 ? <span className="text-xs text-slate-500">{m.attempts} attempts</span> : null}
      </span>
    ),
  },
  {
    id: "time",
    header: "Time",
    className: "whitespace-nowrap",
    cell: (m) => (
      <span className="flex flex-col">
        <span>
          Written <RelativeTime iso={m.created_time} />
        </span>
        {m.sent_time ? (
          <span className="text-xs text-slate-500">
            Sent <RelativeTime iso={m.sent_time} />
          </span>
        ) : null}
        {m.next_attempt_time ? (
          <span className="text-xs text-slate-500">
            Next try <RelativeTime iso={m.next_attempt_time} />
          </span>
        ) : null}
      </span>
    ),
  },
  { id: "error", header: "Error", className: "max-w-xs break-words", cell: (m) => m.last_error || <span className="text-slate-500">None</span> },
];

export function OutboxTable() {
  const { state, hrefWith } = useUrlState(pagedListUrlState);
  const messages = useQuery({ ...v1Queries.emailMessages(state), placeholderData: keepPreviousData });
  return (
    <PaginatedTable
      caption="Outgoing e-mail"
      hideCaption
      itemLabel="messages"
      columns={columns}
      rowKey={(m) => m.id}
      query={messages}
      limit={state.limit}
      hrefFor={hrefWith}
      empty={<EmptyState title="No mail yet">Publishing a contract writes its invitations here.</EmptyState>}
    />
  );
}
