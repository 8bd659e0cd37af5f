// Human words for the API's option values and participant attributes, so the wizard, the inline
// editor and the review step name things the same way. The values themselves come from
// lib/domain/enums; only their wording lives here.

import type { TDeliveryChannel, TSignMethod, TTwoStepMethod } from "@/lib/domain/enums";

export const DELIVERY_CHANNEL_LABELS: Record<TDeliveryChannel, string> = {
  email: "E-mail",
  sms: "SMS",
  same_device: "Same device",
  none: "None (not notified)",
  email_and_sms: "E-mail and SMS",
};

export const SIGN_METHOD_LABELS: Record<TSignMethod, string> = {
  standard_esign: "Standard e-signature",
  sms: "SMS code",
  swedish_bankid: "Swedish BankID",
  norwegian_bankid: "Norwegian BankID",
  danish_nemid: "Danish NemID",
  finnish_bankid: "Finnish bank ID",
  handwritten_signature: "Handwritten signature",
  eid_sign: "eID sign",
};

export const TWO_STEP_METHOD_LABELS: Record<TTwoStepMethod, string> = {
  none: "None",
  email: "E-mail code",
  sms: "SMS code",
};

/** The three template-driven choices of a participant. */
export type TOptionField = "delivery_channel" | "sign_method" | "two_step_authentication_method";

export const OPTION_LABELS = {
  delivery_channel: DELIVERY_CHANNEL_LABELS,
  sign_method: SIGN_METHOD_LABELS,
  two_step_authentication_method: TWO_STEP_METHOD_LABELS,
} as const satisfies Record<TOptionField, Record<string, string>>;

/** The label of one option value (falls back to the raw value for one this app does not know). */
export function optionLabel(field: TOptionField, value: string): string {
  return (OPTION_LABELS[field] as Record<string, string>)[value] ?? value;
}

/** Labels of every attribute a participant problem can be about (paths relative to the participant). */
export const ATTRIBUTE_LABELS: Record<string, string> = {
  name: "Name",
  title: "Title",
  email: "E-mail",
  phone_number: "Phone number",
  identification_number: "Identification number",
  delivery_channel: "Delivery channel",
  sign_method: "Sign method",
  two_step_authentication_method: "Two-step authentication",
  signatory: "Signatory",
  "_permissions.contract:update": "May update the contract",
};

export const PERMISSION_LABEL = ATTRIBUTE_LABELS["_permissions.contract:update"]!;
