// The participant's free-text attributes, each with the shared zod field schema that decides what
// is valid (lib/schemas), so the wizard and the inline editor check exactly what the API checks.

import type { HTMLInputTypeAttribute } from "react";
import type { z } from "zod";
import {
  ZEmailSchema,
  ZIdentificationNumberSchema,
  ZParticipantNameSchema,
  ZPhoneNumberSchema,
  ZTitleSchema,
} from "@/lib/schemas/participant";
import { ATTRIBUTE_LABELS } from "./labels";

export type TTextField = "name" | "title" | "email" | "phone_number" | "identification_number";

export type TTextFieldDefinition = {
  label: string;
  schema: z.ZodType<string, string>;
  type: HTMLInputTypeAttribute;
  autoComplete: string;
  /** Shown under the input: what a valid value looks like, where that is not obvious. */
  hint?: string;
};

export const TEXT_FIELDS: Record<TTextField, TTextFieldDefinition> = {
  name: { label: ATTRIBUTE_LABELS.name!, schema: ZParticipantNameSchema, type: "text", autoComplete: "off" },
  title: { label: ATTRIBUTE_LABELS.title!, schema: ZTitleSchema, type: "text", autoComplete: "off" },
  email: { label: ATTRIBUTE_LABELS.email!, schema: ZEmailSchema, type: "email", autoComplete: "off" },
  phone_number: {
    label: ATTRIBUTE_LABELS.phone_number!,
    schema: ZPhoneNumberSchema,
    type: "tel",
    autoComplete: "off",
    hint: "International format, e.g. +46701234567",
  },
  identification_number: {
    label: ATTRIBUTE_LABELS.identification_number!,
    schema: ZIdentificationNumberSchema,
    type: "text",
    autoComplete: "off",
    hint: "Date of birth, personal number or similar",
  },
};

/** The value as the API would store it, or the first message explaining why it would refuse it. */
export function checkTextField(field: TTextField, raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const result = TEXT_FIELDS[field].schema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, message: result.error.issues[0]?.message ?? "is not valid" };
}
