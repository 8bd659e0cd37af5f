"use client";

// The add forms of the contract page reuse the creation wizard's form model, fields and resolver:
// the values are a one-party create request (the contract's own workspace and template), so the same
// schemas, template options and required attributes apply, and the API's `parameter_problems` paths
// map onto the same field names.

import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { FormProvider, useForm, type FieldPath } from "react-hook-form";
import { RequestError } from "@/lib/client/fetch-json";
import { asSentence, fieldProblem } from "@/components/problems";
import type { TContract, TCreateContractRequest } from "@/lib/schemas/contract";
import type { TAvailableOptions } from "@/lib/schemas/template";
import { CompanyPartyFields } from "../../new/_components/company-party-fields";
import { IndividualPartyFields } from "../../new/_components/individual-party-fields";
import { FormTried, touchEveryField } from "../../new/_components/form-fields";
import { ParticipantEditor } from "../../new/_components/participant-editor";
import { newCompanyParty, newIndividualParty, newParticipant, wizardResolver, type TWizardValues } from "../../new/_components/wizard-form";
import { useAddParticipant, useAddParty } from "./editing-queries";

const secondaryButton = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100";
const primaryButton = "rounded-md bg-blue-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60";

/** A company stand-in for validating one new participant: only its participant is sent. */
const STAND_IN_COMPANY = "Counterparty";

/**
 * Puts each of the API's problems on its field (`prefix` + the request's path) and returns the words
 * for the form's alert. `$` (the request as a whole, e.g. a limit) has no field: the alert says it.
 */
function applyServerProblems(form: ReturnType<typeof useForm<TWizardValues, unknown, TCreateContractRequest>>, error: unknown, prefix: string): string {
  if (!(error instanceof RequestError)) return "The request failed.";
  let onFields = 0;
  for (const [path, messages] of Object.entries(error.parameterProblems)) {
    const message = fieldProblem(messages);
    if (path === "$" || !message) continue;
    form.setError(`${prefix}${path}` as FieldPath<TWizardValues>, { type: "server", message });
    onFields += 1;
  }
  // Each field says its own problem; the alert does not say it again.
  const whole = fieldProblem(error.parameterProblems.$);
  if (whole) return whole;
  return onFields > 0 ? (onFields === 1 ? "Check the field marked below." : "Check the fields marked below.") : asSentence(error.message);
}

function useWizardForm(contract: TContract, available: TAvailableOptions, parties: TWizardValues["parties"]) {
  const availableRef = useRef(available);
  useEffect(() => {
    availableRef.current = available;
  }, [available]);
  const [resolver] = useState(() => wizardResolver(() => availableRef.current));
  return useForm<TWizardValues, unknown, TCreateContractRequest>({
    resolver,
    defaultValues: { name: "", workspace_id: contract.workspace_id, template_id: contract.template_id, parties },
    mode: "onTouched",
  });
}

type TFormFrameProps = {
  title: string;
  failure: string | null;
  busy: boolean;
  submitLabel: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
  /** A submit found problems: every field shows its own. */
  tried: boolean;
  children: ReactNode;
};

/** A titled form with the API's refusal above its buttons; Escape cancels. */
function FormFrame({ title, failure, busy, submitLabel, onSubmit, onCancel, tried, children }: TFormFrameProps) {
  const titleId = useId();
  return (
    <form
      aria-labelledby={titleId}
      noValidate
      onSubmit={onSubmit}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.preventDefault();
          onCancel();
        }
      }}
      className="mt-3 space-y-4 rounded-lg border border-blue-200 bg-white p-4"
    >
      <h3 id={titleId} className="text-base font-semibold text-slate-900">
        {title}
      </h3>
      <FormTried.Provider value={tried}>{children}</FormTried.Provider>
      {failure ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <button type="submit" disabled={busy} className={primaryButton}>
          {busy ? "Adding…" : submitLabel}
        </button>
        <button type="button" onClick={onCancel} className={secondaryButton}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** "Add company" and "Add individual", each opening the wizard's fields for one counterparty. */
export function AddCounterparty({ contract, available }: { contract: TContract; available: TAvailableOptions }) {
  const [kind, setKind] = useState<"company" | "individual" | null>(null);
  const companyButton = useRef<HTMLButtonElement>(null);
  const close = () => {
    setKind(null);
    // After the buttons come back.
    setTimeout(() => companyButton.current?.focus());
  };
  if (kind) return <CounterpartyForm key={kind} kind={kind} contract={contract} available={available} onClose={close} />;
  return (
    <div className="mt-4 flex flex-wrap gap-3">
      <button ref={companyButton} type="button" onClick={() => setKind("company")} className={secondaryButton}>
        Add company
      </button>
      <button type="button" onClick={() => setKind("individual")} className={secondaryButton}>
        Add individual
      </button>
    </div>
  );
}

type TCounterpartyFormProps = { kind: "company" | "individual"; contract: TContract; available: TAvailableOptions; onClose: () => void };

function CounterpartyForm({ kind, contract, available, onClose }: TCounterpartyFormProps) {
  const form = useWizardForm(contract, available, [kind === "company" ? newCompanyParty(available) : newIndividualParty(available)]);
  const add = useAddParty(contract.id);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    form.setFocus(kind === "company" ? "parties.0.name" : "parties.0.participant.name");
  }, [form, kind]);

  const submit = form.handleSubmit((request) => {
    const party = request.parties?.[0];
    if (!party) return;
    setFailure(null);
    add.mutate(party, {
      onSuccess: onClose,
      onError: (error) => setFailure(`The counterparty was not added: ${applyServerProblems(form, error, "parties.0.")}`),
    });
  }, () => touchEveryField(form));

  return (
    <FormProvider {...form}>
      <FormFrame
        title={kind === "company" ? "New counterparty: company" : "New counterparty: person"}
        failure={failure}
        busy={add.isPending}
        submitLabel="Add counterparty"
        onSubmit={(event) => void submit(event)}
        onCancel={onClose}
        tried={form.formState.isSubmitted}
      >
        {kind === "company" ? <CompanyPartyFields index={0} available={available} /> : <IndividualPartyFields index={0} available={available} />}
      </FormFrame>
    </FormProvider>
  );
}

/** "Add participant" on a company counterparty: the wizard's participant fields. */
export function AddParticipant({ contract, partyId, partyName, available }: { contract: TContract; partyId: number; partyName: string; available: TAvailableOptions }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    setTimeout(() => button.current?.focus());
  };
  if (open) return <ParticipantForm contract={contract} partyId={partyId} partyName={partyName} available={available} onClose={close} />;
  return (
    <button ref={button} type="button" onClick={() => setOpen(true)} aria-label={`Add participant to ${partyName}`} className={`mt-3 ${secondaryButton}`}>
      Add participant
    </button>
  );
}

type TParticipantFormProps = { contract: TContract; partyId: number; partyName: string; available: TAvailableOptions; onClose: () => void };

function ParticipantForm({ contract, partyId, partyName, available, onClose }: TParticipantFormProps) {
  const form = useWizardForm(contract, available, [
    { type: "company", name: STAND_IN_COMPANY, country_code: "", identification_number: "", participants: [newParticipant(available)] },
  ]);
  const add = useAddParticipant(contract.id, partyId);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    form.setFocus("parties.0.participants.0.name");
  }, [form]);

  const submit = form.handleSubmit((request) => {
    const party = request.parties?.[0];
    const participant = party?.type === "company" ? party.participants[0] : undefined;
    if (!participant) return;
    setFailure(null);
    add.mutate(participant, {
      onSuccess: onClose,
      onError: (error) => setFailure(`The participant was not added: ${applyServerProblems(form, error, "parties.0.participants.0.")}`),
    });
  }, () => touchEveryField(form));

  return (
    <FormProvider {...form}>
      <FormFrame
        title={`New participant of ${partyName}`}
        failure={failure}
        busy={add.isPending}
        submitLabel="Add participant"
        onSubmit={(event) => void submit(event)}
        onCancel={onClose}
        tried={form.formState.isSubmitted}
      >
        <ParticipantEditor path="parties.0.participants.0" available={available} legend="Participant" />
      </FormFrame>
    </FormProvider>
  );
}
