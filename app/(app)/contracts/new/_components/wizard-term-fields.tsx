"use client";

import { useContext } from "react";
import { Controller, get, useFormContext, useFormState } from "react-hook-form";
import { TermFields } from "@/components/term-fields/term-fields";
import { TERM_SETTINGS, type TTermSetting } from "@/components/term-fields/term-values";
import { FormTried } from "./form-fields";
import type { TWizardValues } from "./wizard-form";

/**
 * Step 1's term (docs/web-app.md "Wizard"): the duration settings, prefilled from the template's
 * defaults, bound to the wizard's `lifecycle_settings`. The shared rules' problems (the resolver's,
 * once a Next was tried: the term is one control to the form, so leaving one of its fields says
 * nothing of the others) and the server's (set on `lifecycle_settings.<setting>`) stand next to
 * their fields.
 */
export function WizardTermFields({ templateChosen }: { templateChosen: boolean }) {
  const { control } = useFormContext<TWizardValues>();
  const tried = useContext(FormTried);
  const { errors } = useFormState<TWizardValues>({ control, name: "lifecycle_settings" });
  const problems: Partial<Record<TTermSetting, string>> = {};
  for (const setting of TERM_SETTINGS) {
    const error = get(errors, `lifecycle_settings.${setting}`) as { type?: string; message?: string } | undefined;
    if (error?.message && (tried || error.type === "server")) problems[setting] = error.message;
  }
  return (
    <fieldset className="rounded-lg border border-slate-200 bg-white p-4">
      <legend className="px-1 text-base font-semibold text-slate-900">Term</legend>
      <p className="mb-3 text-sm text-slate-600">
        {templateChosen ? "From the template's defaults. " : ""}When it starts, how long it lasts and how it renews: the signatories agree to this, and it
        cannot change once published.
      </p>
      <Controller
        control={control}
        name="lifecycle_settings"
        render={({ field }) => <TermFields value={field.value} onChange={field.onChange} onBlur={field.onBlur} problems={problems} />}
      />
    </fieldset>
  );
}
