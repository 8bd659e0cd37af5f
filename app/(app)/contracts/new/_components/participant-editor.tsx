"use client";

import { useId } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import {
  ATTRIBUTE_LABELS,
  inputClass,
  OFFERED_KEY,
  OptionSelect,
  PERMISSION_LABEL,
  TEXT_FIELDS,
  type TOptionField,
  type TTextField,
} from "@/components/participant-fields";
import { requiredAttributes } from "@/lib/domain/options";
import type { TAvailableOptions } from "@/lib/schemas/template";
import { CheckboxField, FieldFrame, TextInputField, useFieldError, type TWizardPath } from "./form-fields";
import type { TWizardValues } from "./wizard-form";

/** Where a participant lives in the form: a company's list, or an individual party's one participant. */
export type TParticipantPath = `parties.${number}.participants.${number}` | `parties.${number}.participant`;

const OPTION_FIELDS: readonly TOptionField[] = ["delivery_channel", "sign_method", "two_step_authentication_method"];

type TParticipantEditorProps = {
  path: TParticipantPath;
  available: TAvailableOptions;
  legend: string;
  /** Absent when the participant cannot be removed (an individual's, or a company's last). */
  onRemove?: () => void;
};

/**
 * One participant of the wizard. Only the template's options are offered; e-mail and phone appear,
 * marked required, exactly when the chosen options require them (lib/domain/options).
 */
export function ParticipantEditor({ path, available, legend, onRemove }: TParticipantEditorProps) {
  const { getFieldState, setValue, trigger } = useFormContext<TWizardValues>();
  const [deliveryChannel, twoStepMethod] = useWatch<TWizardValues, [`${TParticipantPath}.delivery_channel`, `${TParticipantPath}.two_step_authentication_method`]>({
    name: [`${path}.delivery_channel`, `${path}.two_step_authentication_method`],
  });
  const required = requiredAttributes(available, { delivery_channel: deliveryChannel, two_step_authentication_method: twoStepMethod });

  // A change of options or roles can make another field of this participant (in)valid; messages
  // already shown are brought up to date at once, rather than when that field is next touched.
  const revalidateShown = () => {
    if (getFieldState(path).invalid) void trigger(path);
  };

  const text = (field: TTextField, isRequired = false) => (
    <TextInputField
      name={`${path}.${field}`}
      label={TEXT_FIELDS[field].label}
      type={TEXT_FIELDS[field].type}
      autoComplete={TEXT_FIELDS[field].autoComplete}
      hint={TEXT_FIELDS[field].hint}
      required={isRequired}
    />
  );

  return (
    <fieldset className="rounded-md border border-slate-200 bg-slate-50 p-4">
      <legend className="px-1 text-sm font-semibold text-slate-900">{legend}</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        {text("name", true)}
        {text("title")}
        {required.has("email") ? text("email", true) : null}
        {required.has("phone_number") ? text("phone_number", true) : null}
        {text("identification_number")}
      </div>
      <div className="mt-4 grid gap-4 sm:grid-cols-3">
        {OPTION_FIELDS.map((field) => (
          <OptionField key={field} name={`${path}.${field}`} field={field} offered={available[OFFERED_KEY[field]]} onChanged={revalidateShown} />
        ))}
      </div>
      <div className="mt-4 flex flex-wrap gap-x-8 gap-y-2">
        <CheckboxField
          name={`${path}.signatory`}
          label={ATTRIBUTE_LABELS.signatory!}
          hint="Signs the contract; needs the permission to update it."
          onChange={(event: { target: { checked: boolean } }) => {
            // A signatory must be allowed to update the contract: granting it here saves a round trip
            // through the error message. Unticking the permission later still shows the rule.
            if (event.target.checked) setValue(`${path}._permissions.contract:update`, true);
            revalidateShown();
          }}
        />
        <CheckboxField name={`${path}._permissions.contract:update`} label={PERMISSION_LABEL} onChange={revalidateShown} />
      </div>
      <SignOrderInput path={path} />
      {onRemove ? (
        <button
          type="button"
          onClick={onRemove}
          className="mt-4 rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
        >
          Remove {legend.toLowerCase()}
        </button>
      ) : null}
    </fieldset>
  );
}

/** A signatory's stage, asked only when the contract is signed in order. */
function SignOrderInput({ path }: { path: TParticipantPath }) {
  const id = useId();
  const { register } = useFormContext<TWizardValues>();
  const [ordered, signatory] = useWatch<TWizardValues, ["signing_order", `${TParticipantPath}.signatory`]>({ name: ["signing_order", `${path}.signatory`] });
  const name = `${path}.sign_order` as const;
  const error = useFieldError(name);
  if (ordered !== "ordered" || !signatory) return null;
  return (
    <div className="mt-4 max-w-48">
      <FieldFrame id={id} label="Signing stage" required hint="1 signs first; the same number signs together." error={error}>
        {(aria) => (
          <input
            id={id}
            inputMode="numeric"
            className={inputClass(Boolean(error))}
            {...aria}
            {...register(name, { setValueAs: (value: unknown) => (value === "" || value === null || value === undefined ? null : Number(value)) })}
          />
        )}
      </FieldFrame>
    </div>
  );
}

type TOptionFieldProps = {
  name: TWizardPath;
  field: TOptionField;
  offered: readonly { name: string; preferred: boolean }[];
  onChanged: () => void;
};

function OptionField({ name, field, offered, onChanged }: TOptionFieldProps) {
  const id = useId();
  const { register } = useFormContext<TWizardValues>();
  const error = useFieldError(name);
  return (
    <FieldFrame id={id} label={ATTRIBUTE_LABELS[field]!} error={error}>
      {(aria) => <OptionSelect id={id} field={field} offered={offered} className={inputClass(Boolean(error))} {...aria} {...register(name, { onChange: onChanged })} />}
    </FieldFrame>
  );
}
