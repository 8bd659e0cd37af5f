import Link from "next/link";
import { ContractStateBadge } from "@/components/badge";
import { CalendarDate } from "@/components/calendar-date";
import type { TColumn } from "@/components/data-table";
import { RelativeTime } from "@/components/relative-time";
import type { TContractListItem, TContractSearch } from "@/lib/schemas";

/** The people on the other side: every party but the owner side (`my_party`). */
function Counterparties({ contract }: { contract: TContractListItem }) {
  const names = contract.parties.filter((party) => !party.my_party).map((party) => party.name);
  if (names.length === 0) return <span className="text-slate-500">None</span>;
  return <span>{names.join(", ")}</span>;
}

const MATCH_FIELD_WORDS: Record<TContractSearch["matches"][number]["field"], string> = {
  name: "Name",
  party: "Party",
  party_identification_number: "Identification number",
  participant_name: "Participant",
  participant_email: "E-mail",
  data_field: "Field",
  heading: "Heading",
  text: "Text",
};

/**
 * A highlight's pieces, the matched ones (odd) in `<mark>`: the API's pieces as text nodes, never
 * markup, isolated (`<bdi>`) so that a direction override in a contract's text stays inside it.
 */
function Highlighted({ pieces }: { pieces: readonly string[] }) {
  return <bdi>{pieces.map((piece, j) => (j % 2 === 1 ? <mark key={j} className="rounded-sm bg-yellow-100 px-0.5 text-slate-900">{piece}</mark> : piece))}</bdi>;
}

/** Where a contract matched the search, but for its name (marked in the name itself). */
function SearchMatches({ search }: { search: TContractSearch }) {
  const shown = search.matches.filter((m) => m.field !== "name");
  if (shown.length === 0) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-xs text-slate-600" aria-label="Where it matched">
      {shown.map((match, i) => (
        <li key={i}>
          <span className="font-medium">{match.label ? `${MATCH_FIELD_WORDS[match.field]} ${match.label}` : MATCH_FIELD_WORDS[match.field]}:</span>{" "}
          <Highlighted pieces={match.highlight} />
        </li>
      ))}
    </ul>
  );
}

/** The contract's name, its matched words marked when the search matched it there. */
function ContractName({ contract }: { contract: TContractListItem }) {
  const pieces = contract._search?.matches.find((m) => m.field === "name")?.highlight;
  // A name is never cut (it is shorter than a highlight's window): its pieces are the whole name.
  return pieces && pieces.join("") === contract.name ? <Highlighted pieces={pieces} /> : <>{contract.name}</>;
}

const LIFECYCLE_WORDS = { awaiting: "Awaiting start", active: "Active", ended: "Ended" } as const;
const SUB_STATE_WORDS = { canceled: "notice given", terminated: "terminated" } as const;

/** The lifecycle after signing (state, and sub-state), or a dash before. */
function LifecycleWords({ contract }: { contract: TContractListItem }) {
  const { state, sub_state } = contract.lifecycle_state;
  if (state === null) return <span className="text-slate-500">—</span>;
  return <span>{sub_state ? `${LIFECYCLE_WORDS[state]}, ${SUB_STATE_WORDS[sub_state]}` : LIFECYCLE_WORDS[state]}</span>;
}

/**
 * The contracts table's columns. `workspaceNames` maps the ids in the rows to names (from
 * /v1/workspaces); until it has loaded, a workspace shows as its id.
 */
export function contractColumns(workspaceNames: ReadonlyMap<number, string>): TColumn<TContractListItem>[] {
  return [
    {
      id: "name",
      header: "Name",
      sortKey: "name",
      isRowHeader: true,
      className: "min-w-64",
      cell: (contract) => (
        <>
          <Link href={`/contracts/${contract.id}`} className="text-blue-700 underline-offset-2 hover:underline">
            <ContractName contract={contract} />
          </Link>
          {contract._search ? <SearchMatches search={contract._search} /> : null}
        </>
      ),
    },
    {
      id: "workspace",
      header: "Workspace",
      className: "whitespace-nowrap",
      cell: (contract) => workspaceNames.get(contract.workspace_id) ?? `Workspace ${contract.workspace_id}`,
    },
    { id: "state", header: "State", cell: (contract) => <ContractStateBadge state={contract.state} /> },
    { id: "counterparties", header: "Counterparties", className: "min-w-48", cell: (contract) => <Counterparties contract={contract} /> },
    { id: "lifecycle", header: "Lifecycle", className: "whitespace-nowrap", cell: (contract) => <LifecycleWords contract={contract} /> },
    {
      id: "end_date",
      header: "Ends",
      sortKey: "end_date",
      className: "whitespace-nowrap",
      cell: (contract) => <CalendarDate date={contract.lifecycle_state.end_date} />,
    },
    {
      id: "notice_deadline",
      header: "Notice deadline",
      sortKey: "notice_deadline",
      className: "whitespace-nowrap",
      cell: (contract) => <CalendarDate date={contract.lifecycle_state.notice_deadline} />,
    },
    {
      id: "created",
      header: "Created",
      sortKey: "created_time",
      className: "whitespace-nowrap",
      cell: (contract) => <RelativeTime iso={contract.created_time} />,
    },
    {
      id: "updated",
      header: "Updated",
      sortKey: "updated_time",
      className: "whitespace-nowrap",
      cell: (contract) => <RelativeTime iso={contract.updated_time} />,
    },
  ];
}
