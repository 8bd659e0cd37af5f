import type { ComponentPropsWithRef } from "react";
import { optionLabel, type TOptionField } from "./labels";

type TOfferedOption = { name: string; preferred: boolean };

type TOptionSelectProps = Omit<ComponentPropsWithRef<"select">, "children"> & {
  field: TOptionField;
  /** What the contract's template offers for `field`: nothing else can be chosen. */
  offered: readonly TOfferedOption[];
  /**
   * The value stored now, when it may no longer be offered (the template changed since it was
   * chosen): listed, but not selectable, so the select shows the truth instead of a wrong first option.
   */
  stored?: string;
};

/** A `<select>` of the options a template offers for one of a participant's choices. */
export function OptionSelect({ field, offered, stored, ...props }: TOptionSelectProps) {
  const storedIsOffered = stored === undefined || offered.some((option) => option.name === stored);
  return (
    <select {...props}>
      {storedIsOffered ? null : (
        <option value={stored} disabled>
          {optionLabel(field, stored)} (no longer offered)
        </option>
      )}
      {offered.map((option) => (
        <option key={option.name} value={option.name}>
          {optionLabel(field, option.name)}
        </option>
      ))}
    </select>
  );
}

/** The key of a template's `available_options` that lists the choices for `field`. */
export const OFFERED_KEY = {
  delivery_channel: "delivery_channels",
  sign_method: "sign_methods",
  two_step_authentication_method: "two_step_authentication_methods",
} as const satisfies Record<TOptionField, string>;
