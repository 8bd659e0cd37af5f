"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import { useId } from "react";
import { Controller, useFormContext } from "react-hook-form";
import { inputClass, OFFERED_KEY, optionLabel, type TOptionField } from "@/components/participant-fields";
import { ErrorState, LoadingState } from "@/components/states";
import type { TTemplate } from "@/lib/schemas/template";
import type { TWorkspace } from "@/lib/schemas/workspace";
import { FieldFrame, TextInputField, useFieldError } from "./form-fields";
import type { TWizardValues } from "./wizard-form";
import { WizardTermFields } from "./wizard-term-fields";

type TBasicsStepProps = {
  /** Only the workspaces where the user may create contracts. */
  workspaces: UseQueryResult<TWorkspace[]>;
  /** The templates usable in the chosen workspace; idle until one is chosen. */
  templates: UseQueryResult<TTemplate[]>;
  template: TTemplate | undefined;
  workspaceChosen: boolean;
};

/** Step 1: the contract's name, and where and from what it is created. */
export function BasicsStep({ workspaces, templates, template, workspaceChosen }: TBasicsStepProps) {
  if (workspaces.isPending) return <LoadingState label="Loading workspaces…" />;
  if (workspaces.isError) {
    return <ErrorState title="Could not load the workspaces." error={workspaces.error} onRetry={() => workspaces.refetch()} retrying={workspaces.isFetching} />;
  }
  if (workspaces.data.length === 0) {
    return (
      <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        You cannot create contracts in any workspace: that needs the editor role in one. Ask an administrator for it.
      </p>
    );
  }
  return (
    <div className="grid max-w-xl gap-5">
      <TextInputField
        name="name"
        label="Contract name"
        placeholder={template?.name}
        hint="Leave blank to name the contract after its template."
      />
      <IdSelect name="workspace_id" label="Workspace" placeholder="Choose a workspace" items={workspaces.data} />
      <TemplateSelect templates={templates} template={template} workspaceChosen={workspaceChosen} />
      <SigningOrderSelect />
      <WizardTermFields templateChosen={template !== undefined} />
    </div>
  );
}

/** Parallel (everyone invited at once) or in stages by each signatory's number (docs/signing.md "Signing order"). */
function SigningOrderSelect() {
  const id = useId();
  const { register } = useFormContext<TWizardValues>();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        Signing order
      </label>
      <select id={id} aria-describedby={`${id}-hint`} className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm" {...register("signing_order")}>
        <option value="parallel">Everyone signs at once</option>
        <option value="ordered">In stages: each signatory gets a stage number, 1 signs first</option>
      </select>
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
        In stages, each stage is invited when the one before it has signed; signatories sharing a number sign together.
      </p>
    </div>
  );
}

function TemplateSelect({ templates, template, workspaceChosen }: Omit<TBasicsStepProps, "workspaces">) {
  if (!workspaceChosen) {
    return <IdSelect name="template_id" label="Template" placeholder="Choose a workspace first" items={[]} disabled />;
  }
  if (templates.isError) {
    return <ErrorState title="Could not load the templates." error={templates.error} onRetry={() => templates.refetch()} retrying={templates.isFetching} />;
  }
  if (templates.isPending) return <IdSelect name="template_id" label="Template" placeholder="Loading templates…" items={[]} disabled />;
  if (templates.data.length === 0) {
    return <IdSelect name="template_id" label="Template" placeholder="No templates in this workspace" items={[]} disabled />;
  }
  return (
    <div>
      <IdSelect name="template_id" label="Template" placeholder="Choose a template" items={templates.data} />
      {template ? <TemplateOptionsSummary template={template} /> : null}
    </div>
  );
}

const SUMMARY: { field: TOptionField; words: string }[] = [
  { field: "delivery_channel", words: "Delivery" },
  { field: "sign_method", words: "Signing" },
  { field: "two_step_authentication_method", words: "Two-step authentication" },
];

/** What the chosen template lets participants use, so the next step holds no surprises. */
function TemplateOptionsSummary({ template }: { template: TTemplate }) {
  return (
    <dl className="mt-2 grid gap-1 rounded-md bg-slate-100 px-3 py-2 text-xs text-slate-700 sm:grid-cols-[auto_1fr] sm:gap-x-3">
      {SUMMARY.map(({ field, words }) => (
        <div key={field} className="contents">
          <dt className="font-medium">{words}</dt>
          <dd>{template.available_options[OFFERED_KEY[field]].map((option) => optionLabel(field, option.name)).join(", ") || "—"}</dd>
        </div>
      ))}
    </dl>
  );
}

type TIdSelectProps = {
  name: "workspace_id" | "template_id";
  label: string;
  placeholder: string;
  items: readonly { id: number; name: string }[];
  disabled?: boolean;
};

/** A required choice of one item by id; the form holds a number, or undefined while none is chosen. */
function IdSelect({ name, label, placeholder, items, disabled }: TIdSelectProps) {
  const id = useId();
  const { control } = useFormContext<TWizardValues>();
  const error = useFieldError(name);
  return (
    <FieldFrame id={id} label={label} required error={error}>
      {(aria) => (
        <Controller
          control={control}
          name={name}
          render={({ field }) => (
            <select
              id={id}
              ref={field.ref}
              name={field.name}
              value={field.value ?? ""}
              onChange={(event) => field.onChange(event.target.value === "" ? undefined : Number(event.target.value))}
              onBlur={field.onBlur}
              disabled={disabled}
              className={`${inputClass(Boolean(error))} disabled:bg-slate-100 disabled:text-slate-600`}
              {...aria}
            >
              <option value="">{placeholder}</option>
              {items.map((item) => (
                <option key={item.id} value={item.id}>
                  {item.name}
                </option>
              ))}
            </select>
          )}
        />
      )}
    </FieldFrame>
  );
}
