"use client";

import { useId } from "react";
import { useFormContext } from "react-hook-form";
import { COUNTRY_OPTIONS, inputClass } from "@/components/participant-fields";
import { FieldFrame, useFieldError } from "./form-fields";
import type { TWizardValues } from "./wizard-form";

/** A party's country: a select of the ISO codes the API accepts, or not set. */
export function CountryField({ name }: { name: `parties.${number}.country_code` }) {
  const id = useId();
  const { register } = useFormContext<TWizardValues>();
  const error = useFieldError(name);
  return (
    <FieldFrame id={id} label="Country" error={error}>
      {(aria) => (
        <select id={id} className={inputClass(Boolean(error))} {...aria} {...register(name)}>
          <option value="">Not set</option>
          {COUNTRY_OPTIONS.map(({ code, name: country }) => (
            <option key={code} value={code}>
              {country} ({code})
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}
