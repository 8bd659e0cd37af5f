"use client";

import { useId } from "react";
import { Badge } from "@/components/badge";
import { partyDetails } from "@/components/participant-fields";
import type { TContract } from "@/lib/schemas/contract";
import type { TParty } from "@/lib/schemas/party";
import type { TAvailableOptions } from "@/lib/schemas/template";
import { AddParticipant } from "./add-party-forms";
import { ConfirmRemoval } from "./confirm-removal";
import { useDeleteParty } from "./editing-queries";
import { ParticipantCard } from "./participant-card";

type TPartySectionProps = {
  contractId: number;
  party: TParty;
  available: TAvailableOptions | undefined;
  editable: boolean;
  /** Published: show each participant's signing status; `"actions"` adds the link and resend buttons. */
  signing: false | "status" | "actions";
  /** The contract signs in stages: each signatory shows (and, while editable, sets) their `sign_order`. */
  ordered?: boolean;
  /** A draft the user may change: counterparties and participants can be added and removed. */
  structure?: { contract: TContract; available: TAvailableOptions };
};

/** One party: the owner side ("Your side") or a counterparty, company or individual, with its people. */
export function PartySection({ contractId, party, available, editable, signing, ordered, structure }: TPartySectionProps) {
  const headingId = useId();
  const people = party.type === "company" ? party.participants : [party.participant];
  // A long name without spaces breaks anywhere (wrap-anywhere), rather than widening the page.
  return (
    <section aria-labelledby={headingId} className={`rounded-lg border p-4 wrap-anywhere ${party.my_party ? "border-blue-200 bg-blue-50/50" : "border-slate-200 bg-slate-50"}`}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="text-base font-semibold text-slate-900">
          {party.name}
        </h3>
        {party.my_party ? <Badge tone="info">Your side</Badge> : null}
        {structure && !party.my_party ? (
          <div className="ml-auto">
            <RemoveParty contractId={contractId} party={party} />
          </div>
        ) : null}
      </div>
      <p className="mt-0.5 text-sm text-slate-600">{partyDetails(party)}</p>
      {people.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No participants (created through the API without a user).</p>
      ) : (
        <div className="mt-3 grid gap-3">
          {people.map((participant) => (
            <ParticipantCard
              key={participant.id}
              contractId={contractId}
              partyId={party.id}
              participant={participant}
              ownerSide={party.my_party}
              available={available}
              editable={editable}
              signing={signing}
              ordered={ordered}
              removable={structure !== undefined && !participant.organizer}
            />
          ))}
        </div>
      )}
      {structure && !party.my_party && party.type === "company" ? (
        <AddParticipant contract={structure.contract} partyId={party.id} partyName={party.name} available={structure.available} />
      ) : null}
    </section>
  );
}

function RemoveParty({ contractId, party }: { contractId: number; party: TParty }) {
  const removal = useDeleteParty(contractId, party.id);
  return (
    <ConfirmRemoval
      buttonLabel={`Remove counterparty ${party.name}`}
      title="Remove this counterparty?"
      description={`“${party.name}” will be removed from the contract with its participants.`}
      confirmLabel="Remove counterparty"
      what="counterparty"
      removal={removal}
    />
  );
}
