"use client";

// The wizard's labelled inputs bound to its react-hook-form model: label, hint and the field's error
// (the client's or the server's) wired together with ids and aria attributes.

import { createContext, useContext, useId, type ReactNode } from "react";
import { get, useFormContext, useFormState, useWatch, type FieldPath, type RegisterOptions, type UseFormReturn } from "react-hook-form";
import { FieldMessages, describedByIds } from "@/components/field-messages";
import { inputClass, labelClass } from "@/components/participant-fields";
import { asSentence } from "@/components/problems";
import type { TCreateContractRequest } from "@/lib/schemas/contract";
import type { TWizardValues } from "./wizard-form";

export type TWizardPath = FieldPath<TWizardValues>;

/**
 * Whether the form (the wizard: its current step) was tried: a Next or a submit found problems.
 * Those check every field with `trigger(…, { shouldTouch: true })`, so each is touched.
 */
export const FormTried = createContext(false);

/**
 * After a submit found problems: every field is checked and touched, so each shows its problem. By
 * the form's top-level names, which reach only the fields there are now (the names of rows removed
 * from a list are remembered, and would leave marks for the next row added there).
 */
export function touchEveryField(form: Pick<UseFormReturn<TWizardValues, unknown, TCreateContractRequest>, "trigger" | "getValues">): void {
  void form.trigger(Object.keys(form.getValues()) as TWizardPath[], { shouldTouch: true });
}

/**
 * The message shown for `name`, as a plain sentence. A field's own problem shows once the field is
 * touched (left, or checked by a Next or submit) and either holds something or the form was tried,
 * or when the server named it; a list's (e.g. "needs at least one", "at most 50") at once. So a
 * counterparty just added is not wrong before anything is typed in it, and leaving an empty field
 * before the form was tried does not move the page under the pointer.
 */
export function useFieldError(name: TWizardPath): string | undefined {
  const tried = useContext(FormTried);
  const { errors, touchedFields } = useFormState<TWizardValues>({ name });
  const value: unknown = useWatch<TWizardValues>({ name });
  const error = get(errors, name) as { type?: string; message?: string; root?: { message?: string } } | undefined;
  if (Array.isArray(value)) {
    const listMessage = error?.root?.message ?? error?.message;
    return listMessage ? asSentence(listMessage) : undefined;
  }
  const holdsSomething = value !== undefined && value !== null && value !== "";
  const touched = get(touchedFields, name) === true;
  const own = error?.message && (error.type === "server" || (touched && (holdsSomething || tried))) ? error.message : undefined;
  const message = own ?? error?.root?.message;
  return message ? asSentence(message) : undefined;
}

type TFieldFrameProps = {
  id: string;
  label: string;
  required?: boolean;
  hint?: string;
  error?: string;
  children: (aria: { "aria-invalid"?: true; "aria-describedby"?: string; "aria-required"?: true }) => ReactNode;
  className?: string;
};

/** Label above, hint and error below, and the aria wiring between them. */
export function FieldFrame({ id, label, required, hint, error, children, className }: TFieldFrameProps) {
  const describedBy = describedByIds(id, error, hint);
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        {label}
        {required ? <span className="font-normal text-slate-600"> (required)</span> : null}
      </label>
      <div className="mt-1">
        {children({
          "aria-invalid": error ? true : undefined,
          "aria-describedby": describedBy,
          "aria-required": required ? true : undefined,
        })}
      </div>
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  );
}

type TTextInputFieldProps = {
  name: TWizardPath;
  label: string;
  type?: string;
  required?: boolean;
  hint?: string;
  placeholder?: string;
  autoComplete?: string;
  className?: string;
};

export function TextInputField({ name, label, type = "text", required, hint, placeholder, autoComplete = "off", className }: TTextInputFieldProps) {
  const id = useId();
  const { register } = useFormContext<TWizardValues>();
  const error = useFieldError(name);
  return (
    <FieldFrame id={id} label={label} required={required} hint={hint} error={error} className={className}>
      {(aria) => (
        <input
          id={id}
          type={type}
          autoComplete={autoComplete}
          placeholder={placeholder}
          className={inputClass(Boolean(error))}
          {...aria}
          {...register(name)}
        />
      )}
    </FieldFrame>
  );
}

type TCheckboxFieldProps = {
  name: TWizardPath;
  label: string;
  hint?: string;
  onChange?: RegisterOptions<TWizardValues>["onChange"];
};

export function CheckboxField({ name, label, hint, onChange }: TCheckboxFieldProps) {
  const id = useId();
  const { register } = useFormContext<TWizardValues>();
  const error = useFieldError(name);
  return (
    <div>
      <div className="flex items-center gap-2">
        <input
          id={id}
          type="checkbox"
          className="size-4 rounded border-slate-400"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedByIds(id, error, hint)}
          {...register(name, { onChange })}
        />
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
      </div>
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  );
}
