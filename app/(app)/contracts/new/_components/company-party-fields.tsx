"use client";

import { useRef } from "react";
import { useFieldArray, useFormContext } from "react-hook-form";
import type { TAvailableOptions } from "@/lib/schemas/template";
import { CountryField } from "./country-field";
import { TextInputField, useFieldError } from "./form-fields";
import { ParticipantEditor } from "./participant-editor";
import { newParticipant, type TWizardValues } from "./wizard-form";

type TCompanyPartyFieldsProps = { index: number; available: TAvailableOptions };

/** A company counterparty: its own details and one or more participants (`useFieldArray`). */
export function CompanyPartyFields({ index, available }: TCompanyPartyFieldsProps) {
  const { control } = useFormContext<TWizardValues>();
  const { fields, append, remove } = useFieldArray({ control, name: `parties.${index}.participants` });
  const listError = useFieldError(`parties.${index}.participants`);
  const addButton = useRef<HTMLButtonElement>(null);

  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-3">
        <TextInputField name={`parties.${index}.name`} label="Company name" required autoComplete="organization" />
        <CountryField name={`parties.${index}.country_code`} />
        <TextInputField name={`parties.${index}.identification_number`} label="Registration number" />
      </div>
      {listError ? <p className="text-sm text-red-700">Participants: {listError}</p> : null}
      {fields.map((field, j) => (
        <ParticipantEditor
          key={field.id}
          path={`parties.${index}.participants.${j}`}
          available={available}
          legend={`Participant ${j + 1}`}
          // A company needs at least one participant (docs/api.md "The domain"), so the last one stays.
          onRemove={
            fields.length > 1
              ? () => {
                  remove(j);
                  addButton.current?.focus();
                }
              : undefined
          }
        />
      ))}
      <button
        ref={addButton}
        type="button"
        onClick={() => append(newParticipant(available), { shouldFocus: true })}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
      >
        Add participant
      </button>
    </div>
  );
}
