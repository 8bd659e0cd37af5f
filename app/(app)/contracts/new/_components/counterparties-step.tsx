"use client";

import { useRef } from "react";
import { useFieldArray, useFormContext } from "react-hook-form";
import { EmptyState } from "@/components/states";
import type { TAvailableOptions } from "@/lib/schemas/template";
import { CompanyPartyFields } from "./company-party-fields";
import { useFieldError } from "./form-fields";
import { IndividualPartyFields } from "./individual-party-fields";
import { newCompanyParty, newIndividualParty, type TWizardValues } from "./wizard-form";

const secondaryButton = "rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100";

/** Step 2: the counterparties, companies and individuals, in the order they were added. */
export function CounterpartiesStep({ available }: { available: TAvailableOptions }) {
  const { control } = useFormContext<TWizardValues>();
  const { fields, append, remove } = useFieldArray({ control, name: "parties" });
  const listError = useFieldError("parties");
  const addCompanyButton = useRef<HTMLButtonElement>(null);

  return (
    <div className="space-y-6">
      {/* The list's own problem (e.g. too many counterparties). */}
      {listError ? <p className="text-sm text-red-700">Counterparties: {listError}</p> : null}
      {fields.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white">
          <EmptyState title="No counterparties yet">
            Add the companies and people who sign with you. A contract can also be created without any.
          </EmptyState>
        </div>
      ) : null}
      {fields.map((party, index) => {
        const kind = party.type === "company" ? "company" : "person";
        const legend = `Counterparty ${index + 1}: ${kind}`;
        return (
          <fieldset key={party.id} className="rounded-lg border border-slate-200 bg-white p-4">
            <legend className="px-1 text-base font-semibold text-slate-900">{legend}</legend>
            {party.type === "company" ? (
              <CompanyPartyFields index={index} available={available} />
            ) : (
              <IndividualPartyFields index={index} available={available} />
            )}
            <button
              type="button"
              onClick={() => {
                remove(index);
                addCompanyButton.current?.focus();
              }}
              className="mt-4 rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
            >
              Remove counterparty {index + 1}
            </button>
          </fieldset>
        );
      })}
      <div className="flex flex-wrap gap-3">
        <button ref={addCompanyButton} type="button" onClick={() => append(newCompanyParty(available), { shouldFocus: true })} className={secondaryButton}>
          Add company
        </button>
        <button type="button" onClick={() => append(newIndividualParty(available), { shouldFocus: true })} className={secondaryButton}>
          Add individual
        </button>
      </div>
    </div>
  );
}
