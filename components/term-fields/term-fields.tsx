"use client";

// The term's fields (term-values.ts), controlled: the wizard binds them to its form, the contract
// page to its own state. Only the settings the chosen duration allows are shown; each field's
// problem stands next to it, and its controls name it in aria-describedby.

import { useId, type ReactNode } from "react";
import { FieldMessages, describedByIds } from "@/components/field-messages";
import { errorClass, inputClass, labelClass } from "@/components/participant-fields";
import { DURATION_TYPES, type TDurationType } from "@/lib/domain/lifecycle";
import { DURATION_HINTS, DURATION_LABELS, PERIOD_UNITS, shownFor, UNIT_LABELS, type TPeriodInput, type TTermFormValues, type TTermSetting } from "./term-values";

type TTermFieldsProps = {
  value: TTermFormValues;
  onChange: (next: TTermFormValues) => void;
  /** Called when focus leaves one of the fields (the wizard validates on blur). */
  onBlur?: () => void;
  /** One sentence per setting, shown next to its field. */
  problems: Partial<Record<TTermSetting, string>>;
  disabled?: boolean;
};

const selectClass = (invalid: boolean) => `${inputClass(invalid)} disabled:bg-slate-100`;

export function TermFields({ value, onChange, onBlur, problems, disabled }: TTermFieldsProps) {
  const id = useId();
  const set = <K extends keyof TTermFormValues>(key: K, next: TTermFormValues[K]) => onChange({ ...value, [key]: next });
  const { firstPeriod, recurring } = shownFor(value.duration);
  const single = value.duration === "single_period";
  return (
    <div className="grid gap-4" onBlur={onBlur}>
      <Field id={`${id}-duration`} label="Duration" problem={problems.duration} hint={DURATION_HINTS[value.duration]}>
        {(aria) => (
          <select
            id={`${id}-duration`}
            value={value.duration}
            disabled={disabled}
            onChange={(event) => set("duration", event.target.value as TDurationType)}
            className={selectClass(Boolean(problems.duration))}
            {...aria}
          >
            {DURATION_TYPES.map((duration) => (
              <option key={duration} value={duration}>
                {DURATION_LABELS[duration]}
              </option>
            ))}
          </select>
        )}
      </Field>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${id}-starts`} label="Starts">
          {(aria) => (
            <select
              id={`${id}-starts`}
              value={value.starts}
              disabled={disabled}
              onChange={(event) => set("starts", event.target.value as TTermFormValues["starts"])}
              className={selectClass(false)}
              {...aria}
            >
              <option value="on_signing">When the contract is signed</option>
              <option value="on_date">On a date</option>
            </select>
          )}
        </Field>
        {value.starts === "on_date" ? (
          <Field id={`${id}-start`} label="Start date" problem={problems.start_date} hint="The first day it is in force.">
            {(aria) => (
              <input
                id={`${id}-start`}
                type="date"
                value={value.start_date}
                disabled={disabled}
                onChange={(event) => set("start_date", event.target.value)}
                className={inputClass(Boolean(problems.start_date))}
                {...aria}
              />
            )}
          </Field>
        ) : problems.start_date ? (
          // A problem the server named while the field is not shown still stands somewhere.
          <p className={errorClass}>{problems.start_date}</p>
        ) : null}
      </div>

      {firstPeriod ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={`${id}-ends`} label={single ? "Ends" : "Initial period ends"}>
            {(aria) => (
              <select
                id={`${id}-ends`}
                value={value.first_period_ends}
                disabled={disabled}
                onChange={(event) => set("first_period_ends", event.target.value as TTermFormValues["first_period_ends"])}
                className={selectClass(false)}
                {...aria}
              >
                <option value="on_date">On a date</option>
                <option value="after_duration">After a duration</option>
              </select>
            )}
          </Field>
          {value.first_period_ends === "on_date" ? (
            <Field
              id={`${id}-end`}
              label="End date"
              problem={problems.end_date ?? problems.initial_duration}
              hint={single ? "Its last day in force." : "The initial period's last day."}
            >
              {(aria) => (
                <input
                  id={`${id}-end`}
                  type="date"
                  value={value.end_date}
                  disabled={disabled}
                  onChange={(event) => set("end_date", event.target.value)}
                  className={inputClass(Boolean(problems.end_date))}
                  {...aria}
                />
              )}
            </Field>
          ) : (
            <PeriodField
              id={`${id}-initial`}
              label="Initial duration"
              value={value.initial_duration}
              onChange={(next) => set("initial_duration", next)}
              problem={problems.initial_duration ?? problems.end_date}
              hint={single ? "How long it lasts from the start." : "How long the initial period lasts."}
              disabled={disabled}
            />
          )}
        </div>
      ) : null}

      {recurring ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <PeriodField
            id={`${id}-renewal`}
            label="Renewal period"
            value={value.renewal_period}
            onChange={(next) => set("renewal_period", next)}
            problem={problems.renewal_period}
            hint="How long each renewed period lasts."
            disabled={disabled}
          />
          <PeriodField
            id={`${id}-notice`}
            label="Notice period"
            optional
            value={value.notice_period}
            onChange={(next) => set("notice_period", next)}
            problem={problems.notice_period}
            hint="How long before a period ends notice must be given. Empty: up to its last day."
            disabled={disabled}
          />
        </div>
      ) : null}
    </div>
  );
}

type TAria = { "aria-invalid"?: true; "aria-describedby"?: string };

function Field({ id, label, problem, hint, children }: { id: string; label: string; problem?: string; hint?: string; children: (aria: TAria) => ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <div className="mt-1">{children({ "aria-invalid": problem ? true : undefined, "aria-describedby": describedByIds(id, problem, hint) })}</div>
      <FieldMessages id={id} error={problem} hint={hint} />
    </div>
  );
}

type TPeriodFieldProps = {
  id: string;
  label: string;
  optional?: boolean;
  value: TPeriodInput;
  onChange: (next: TPeriodInput) => void;
  problem?: string;
  hint?: string;
  disabled?: boolean;
};

/** A number and its unit, one group named by the label: "Notice period" and "Notice period unit". */
function PeriodField({ id, label, optional, value, onChange, problem, hint, disabled }: TPeriodFieldProps) {
  const aria = { "aria-invalid": problem ? (true as const) : undefined, "aria-describedby": describedByIds(id, problem, hint) };
  return (
    <div role="group" aria-labelledby={`${id}-label`}>
      <label id={`${id}-label`} htmlFor={id} className={labelClass}>
        {label}
        {optional ? <span className="font-normal text-slate-600"> (optional)</span> : null}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={value.count}
          disabled={disabled}
          onChange={(event) => onChange({ ...value, count: event.target.value })}
          className={`${inputClass(Boolean(problem))} w-24`}
          {...aria}
        />
        <select
          aria-label={`${label} unit`}
          value={value.unit}
          disabled={disabled}
          onChange={(event) => onChange({ ...value, unit: event.target.value as TPeriodInput["unit"] })}
          className={selectClass(Boolean(problem))}
          {...aria}
        >
          {PERIOD_UNITS.map((unit) => (
            <option key={unit} value={unit}>
              {UNIT_LABELS[unit]}
            </option>
          ))}
        </select>
      </div>
      <FieldMessages id={id} error={problem} hint={hint} />
    </div>
  );
}
