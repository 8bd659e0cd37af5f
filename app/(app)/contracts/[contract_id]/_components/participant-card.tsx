"use client";

import { useId } from "react";
import { ATTRIBUTE_LABELS, PERMISSION_LABEL } from "@/components/participant-fields";
import { Badge } from "@/components/badge";
import type { TParticipant } from "@/lib/schemas/participant";
import type { TAvailableOptions } from "@/lib/schemas/template";
import { ConfirmRemoval } from "./confirm-removal";
import { useDeleteParticipant } from "./editing-queries";
import { InlineField } from "./inline-field";
import { SigningStatus } from "./signing-status";
import { SignOrderField } from "./sign-order-field";
import type { TEditableField } from "./participant-change";

const FIELDS: readonly { field: TEditableField; label: string }[] = [
  { field: "name", label: ATTRIBUTE_LABELS.name! },
  { field: "title", label: ATTRIBUTE_LABELS.title! },
  { field: "email", label: ATTRIBUTE_LABELS.email! },
  { field: "phone_number", label: ATTRIBUTE_LABELS.phone_number! },
  { field: "identification_number", label: ATTRIBUTE_LABELS.identification_number! },
  { field: "delivery_channel", label: ATTRIBUTE_LABELS.delivery_channel! },
  { field: "sign_method", label: ATTRIBUTE_LABELS.sign_method! },
  { field: "two_step_authentication_method", label: ATTRIBUTE_LABELS.two_step_authentication_method! },
  { field: "signatory", label: ATTRIBUTE_LABELS.signatory! },
  { field: "contract:update", label: PERMISSION_LABEL },
];

const SIGN_STATE: Record<TParticipant["sign_state"], { label: string; tone: "neutral" | "success" | "danger" }> = {
  undecided: { label: "Not signed yet", tone: "neutral" },
  signed: { label: "Signed", tone: "success" },
  declined: { label: "Declined", tone: "danger" },
};

export type TParticipantCardProps = {
  contractId: number;
  partyId: number;
  participant: TParticipant;
  ownerSide: boolean;
  available: TAvailableOptions | undefined;
  editable: boolean;
  signing: false | "status" | "actions";
  /** The contract signs in stages (`signing_order: ordered`): the signatory's stage is shown, and set while editable. */
  ordered?: boolean;
  /** Offers Remove (a draft the user may change; not the organizer). The API may still refuse, e.g. a party's last participant. */
  removable?: boolean;
};

/** A participant with every writable attribute editable in place. */
export function ParticipantCard({ contractId, partyId, participant, ownerSide, available, editable, signing, ordered, removable }: TParticipantCardProps) {
  const headingId = useId();
  const labelIds = useId();
  return (
    <article aria-labelledby={headingId} className="rounded-md border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h4 id={headingId} className="text-sm font-semibold text-slate-900">
          {participant.name}
        </h4>
        {participant.my_participant ? <Badge tone="info">You</Badge> : null}
        {participant.organizer ? <Badge>Organizer</Badge> : null}
        {participant.signatory ? <Badge tone={SIGN_STATE[participant.sign_state].tone}>{SIGN_STATE[participant.sign_state].label}</Badge> : null}
        {participant.delegated_to_id !== null ? <Badge>Handed on</Badge> : null}
        {removable ? (
          <div className="ml-auto">
            <RemoveParticipant contractId={contractId} partyId={partyId} participant={participant} />
          </div>
        ) : null}
      </div>
      <dl className="mt-3 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[12rem_1fr] 2xl:grid-cols-[11rem_1fr_11rem_1fr]">
        {FIELDS.map(({ field, label }) => {
          const labelId = `${labelIds}-${field}`;
          // Owner-side participants are users of the service: their address belongs to their account.
          const lockedEmail = ownerSide && field === "email";
          return (
            <div key={field} className="contents">
              <dt id={labelId} className="pt-0.5 font-medium text-slate-700">
                {label}
              </dt>
              <dd className="min-w-0 text-slate-900">
                <InlineField
                  contractId={contractId}
                  partyId={partyId}
                  participant={participant}
                  field={field}
                  label={label}
                  labelId={labelId}
                  available={available}
                  editable={editable && !lockedEmail}
                  readOnlyHint={lockedEmail ? "Your side's e-mail is the user's account address; it cannot be changed here." : undefined}
                />
              </dd>
            </div>
          );
        })}
      </dl>
      {ordered ? <SignOrderField key={participant.sign_order ?? "none"} contractId={contractId} partyId={partyId} participant={participant} editable={editable && signing === false} /> : null}
      {signing ? <SigningStatus contractId={contractId} partyId={partyId} participant={participant} actions={signing === "actions"} /> : null}
    </article>
  );
}

function RemoveParticipant({ contractId, partyId, participant }: { contractId: number; partyId: number; participant: TParticipant }) {
  const removal = useDeleteParticipant(contractId, partyId, participant.id);
  return (
    <ConfirmRemoval
      buttonLabel={`Remove participant ${participant.name}`}
      title="Remove this participant?"
      description={`“${participant.name}” will be removed from the contract.`}
      confirmLabel="Remove participant"
      what="participant"
      removal={removal}
    />
  );
}
