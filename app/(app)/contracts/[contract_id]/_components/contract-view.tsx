"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { ContractStateBadge } from "@/components/badge";
import { RelativeTime } from "@/components/relative-time";
import { ErrorState, LoadingState } from "@/components/states";
import { RequestError } from "@/lib/client/fetch-json";
import { v1Queries } from "@/lib/client/v1";
import { EDITABLE_CONTRACT_STATES } from "@/lib/domain/enums";
import type { TContract } from "@/lib/schemas/contract";
import { ActivitySection } from "./activity-section";
import { AttachmentsSection } from "./attachments-section";
import { DocumentSection } from "./document-section";
import { AddCounterparty } from "./add-party-forms";
import { ContractNotFound } from "./contract-not-found";
import { DataFieldsSection } from "./data-fields-section";
import { DeleteContract } from "./delete-contract";
import { PartySection } from "./party-section";
import { RemindersSection } from "./reminders-section";
import { InternalReminders } from "./internal-reminders";
import { TermSection } from "./term-section";
import { PublishPanel } from "./publish-panel";
import { WithdrawContract } from "./withdraw-contract";

/** The contract page: header (with Delete), parties with inline participant editing, data fields, activity. */
export function ContractView({ contractId, isAdmin }: { contractId: number; isAdmin: boolean }) {
  const contract = useQuery(v1Queries.contract(contractId));
  if (contract.isPending) return <LoadingState label="Loading the contract…" lines={6} />;
  if (contract.isError) {
    // 400 too: an id the API does not accept names no contract either.
    if (contract.error instanceof RequestError && (contract.error.status === 404 || contract.error.status === 400)) return <ContractNotFound />;
    return <ErrorState title="Could not load the contract." error={contract.error} onRetry={() => void contract.refetch()} retrying={contract.isFetching} />;
  }
  return <LoadedContract contract={contract.data} isAdmin={isAdmin} />;
}

function LoadedContract({ contract, isAdmin }: { contract: TContract; isAdmin: boolean }) {
  const workspaces = useQuery(v1Queries.allWorkspaces());
  const template = useQuery(v1Queries.template(contract.template_id));
  const workspace = workspaces.data?.find((candidate) => candidate.id === contract.workspace_id);
  // Whoever may create contracts in a workspace (admins, editors) may also change their participants.
  const mayWrite = workspace?._permissions["contract:create"] ?? false;
  const stateAllows = EDITABLE_CONTRACT_STATES.includes(contract.state);
  const available = template.data?.available_options;
  // The API's rule (docs/api.md "Deleting a contract"): editors delete drafts, administrators any contract.
  const mayDelete = isAdmin || (mayWrite && contract.state === "draft");
  // Parties and participants come and go only while it is a draft (the API answers 409 otherwise).
  const structure = mayWrite && contract.state === "draft" && available ? { contract, available } : undefined;

  return (
    <div className="max-w-5xl">
      <p className="text-sm">
        <Link href="/contracts" className="font-medium text-blue-700 underline hover:text-blue-900">
          Contracts
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 text-2xl wrap-anywhere font-semibold tracking-tight text-slate-900">{contract.name}</h1>
        <ContractStateBadge state={contract.state} />
        {contract.state === "pending" && mayWrite ? <WithdrawContract contract={contract} /> : null}
        {mayDelete ? (
          <div className="ml-auto">
            <DeleteContract contract={contract} />
          </div>
        ) : null}
      </div>
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <Fact term="Workspace">{workspace?.name ?? `Workspace ${contract.workspace_id}`}</Fact>
        <Fact term="Template">{template.data?.name ?? `Template ${contract.template_id}`}</Fact>
        <Fact term="Created">
          <RelativeTime iso={contract.created_time} />
        </Fact>
        <Fact term="Updated">
          <RelativeTime iso={contract.updated_time} />
        </Fact>
        {contract.published_time ? (
          <Fact term="Published">
            <RelativeTime iso={contract.published_time} />
          </Fact>
        ) : null}
        <Fact term="Signing order">{contract.signing_order === "ordered" ? "In stages, by each signatory's stage number" : "Everyone at once"}</Fact>
        <Fact term="Delegation">{contract.delegation_allowed ? "Signatories may hand their signature on" : "Not allowed"}</Fact>
        {contract.signing_period_expiry_time ? (
          <Fact term="Signing period ends">
            <RelativeTime iso={contract.signing_period_expiry_time} />
          </Fact>
        ) : null}
      </dl>

      {contract.state === "draft" && mayWrite ? <PublishPanel contract={contract} /> : null}

      <EditingNotice contract={contract} stateAllows={stateAllows} mayWrite={mayWrite} workspacesLoaded={workspaces.isSuccess} />
      {template.isError ? (
        <div className="mt-4">
          <ErrorState
            title="Could not load the template's options, so participants cannot be edited now."
            error={template.error}
            onRetry={() => void template.refetch()}
            retrying={template.isFetching}
          />
        </div>
      ) : null}

      {/* The term: settings while a draft, agreed once published, with the lifecycle and its actions once signed. */}
      <TermSection contract={contract} mayWrite={mayWrite} />

      <section aria-labelledby="parties-title" className="mt-8">
        {/* Focusable, so focus has somewhere to go when a removed party or participant takes its button away. */}
        <h2 id="parties-title" tabIndex={-1} className="text-lg font-semibold text-slate-900">
          Parties
        </h2>
        {stateAllows && mayWrite ? (
          <p className="mt-1 text-sm text-slate-600">Select a participant&apos;s value to change it; Enter saves, Escape cancels.</p>
        ) : null}
        <div className="mt-3 grid gap-4">
          {contract.parties.map((party) => (
            <PartySection
              key={party.id}
              contractId={contract.id}
              party={party}
              available={available}
              editable={stateAllows && mayWrite}
              signing={contract.state === "draft" ? false : contract.state === "pending" && mayWrite ? "actions" : "status"}
              ordered={contract.signing_order === "ordered"}
              structure={structure}
            />
          ))}
        </div>
        {structure ? <AddCounterparty contract={contract} available={structure.available} /> : null}
      </section>

      {/* What the signatories were invited to sign: its values change only in a draft (the API answers 409 `data_fields_frozen`). */}
      <DataFieldsSection contractId={contract.id} editable={contract.state === "draft" && mayWrite} />
      <DocumentSection contractId={contract.id} editable={contract.state === "draft" && mayWrite} />
      <AttachmentsSection contractId={contract.id} editable={contract.state === "draft" && mayWrite} />
      {contract.state === "draft" || contract.state === "pending" ? <RemindersSection contractId={contract.id} editable={mayWrite} /> : null}
      <InternalReminders contractId={contract.id} editable={mayWrite} />
      <ActivitySection contract={contract} />
    </div>
  );
}

/** Why the participants are read-only, when they are. */
function EditingNotice({ contract, stateAllows, mayWrite, workspacesLoaded }: { contract: TContract; stateAllows: boolean; mayWrite: boolean; workspacesLoaded: boolean }) {
  const text = !stateAllows
    ? `This contract is ${contract.state}: its parties and participants can no longer change.`
    : workspacesLoaded && !mayWrite
      ? "You can view this workspace's contracts but not change them."
      : null;
  if (!text) return null;
  return <p className="mt-4 rounded-md border border-slate-200 bg-slate-100 px-3 py-2 text-sm text-slate-800">{text}</p>;
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-600">{term}</dt>
      <dd className="text-slate-900">{children}</dd>
    </>
  );
}
