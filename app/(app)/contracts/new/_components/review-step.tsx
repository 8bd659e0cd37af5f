"use client";

import type { ReactNode } from "react";
import { optionLabel, partyDetails, PERMISSION_LABEL } from "@/components/participant-fields";
import { termRequestOf, termRows } from "@/components/term-fields/term-values";
import type { TTemplate } from "@/lib/schemas/template";
import type { TWorkspace } from "@/lib/schemas/workspace";
import type { TWizardParticipant, TWizardParty, TWizardValues } from "./wizard-form";

type TReviewStepProps = {
  /** The values as they will be sent (hidden contact fields already left out). */
  values: TWizardValues;
  workspace: TWorkspace | undefined;
  template: TTemplate | undefined;
  /** Back to the step where a section's values are entered. */
  onChange: (step: 1 | 2) => void;
  /** The optional PDF to upload as the document, after the counterparties. */
  pdf?: ReactNode;
};

/** Step 3: everything the contract will be created with, to read before creating it. */
export function ReviewStep({ values, workspace, template, onChange, pdf }: TReviewStepProps) {
  return (
    <div className="space-y-6">
      <section aria-labelledby="review-contract" className="rounded-lg border border-slate-200 bg-white p-4">
        <SectionHeading id="review-contract" title="Contract" onChange={() => onChange(1)} />
        <dl className="mt-3 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
          <Row term="Name">{values.name.trim() || <>{template?.name} <span className="text-slate-600">(the template&apos;s name)</span></>}</Row>
          <Row term="Workspace">{workspace?.name ?? "—"}</Row>
          <Row term="Template">{template?.name ?? "—"}</Row>
        </dl>
      </section>
      <section aria-labelledby="review-term" className="rounded-lg border border-slate-200 bg-white p-4">
        <SectionHeading id="review-term" title="Term" onChange={() => onChange(1)} />
        <dl className="mt-3 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
          {termRows(termRequestOf(values.lifecycle_settings).settings).map((row) => (
            <Row key={row.term} term={row.term}>
              {row.value}
            </Row>
          ))}
        </dl>
      </section>
      <section aria-labelledby="review-parties" className="rounded-lg border border-slate-200 bg-white p-4">
        <SectionHeading id="review-parties" title="Counterparties" onChange={() => onChange(2)} />
        {values.parties.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">None: only your side will be on the contract.</p>
        ) : (
          <ol className="mt-3 space-y-4">
            {values.parties.map((party, index) => (
              <li key={index}>
                <PartySummary party={party} number={index + 1} />
              </li>
            ))}
          </ol>
        )}
      </section>
      {pdf}
    </div>
  );
}

function SectionHeading({ id, title, onChange }: { id: string; title: string; onChange: () => void }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <h3 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h3>
      <button type="button" onClick={onChange} className="text-sm font-medium text-blue-700 underline hover:text-blue-900">
        Change<span className="sr-only"> {title.toLowerCase()}</span>
      </button>
    </div>
  );
}

function PartySummary({ party, number }: { party: TWizardParty; number: number }) {
  const people = party.type === "company" ? party.participants : [party.participant];
  const heading = party.type === "company" ? party.name : party.participant.name;
  return (
    <div>
      <h4 className="text-sm font-semibold text-slate-900">
        {number}. {heading}
      </h4>
      <p className="text-sm text-slate-600">{partyDetails(party)}</p>
      <ul className="mt-2 space-y-2">
        {people.map((person, j) => (
          <li key={j} className="rounded-md bg-slate-50 px-3 py-2">
            <ParticipantSummary participant={person} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function ParticipantSummary({ participant: p }: { participant: TWizardParticipant }) {
  const roles = [p.signatory ? "Signatory" : null, p._permissions["contract:update"] ? PERMISSION_LABEL : null].filter(Boolean);
  return (
    <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
      <Row term="Name">
        {p.name}
        {p.title ? <span className="text-slate-600">, {p.title}</span> : null}
      </Row>
      {p.email ? <Row term="E-mail">{p.email}</Row> : null}
      {p.phone_number ? <Row term="Phone number">{p.phone_number}</Row> : null}
      {p.identification_number ? <Row term="Identification number">{p.identification_number}</Row> : null}
      <Row term="Delivery channel">{optionLabel("delivery_channel", p.delivery_channel)}</Row>
      <Row term="Sign method">{optionLabel("sign_method", p.sign_method)}</Row>
      <Row term="Two-step authentication">{optionLabel("two_step_authentication_method", p.two_step_authentication_method)}</Row>
      <Row term="Roles">{roles.length > 0 ? roles.join(", ") : "Viewer"}</Row>
    </dl>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-700">{term}</dt>
      <dd className="text-slate-900">{children}</dd>
    </>
  );
}
