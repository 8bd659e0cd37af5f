// The signing page's own API (/api/sign/{token}, docs/signing.md "Links and the signing page"): used by the
// page a participant opens from their invitation, not part of /v1.
import { z } from "zod";

import { hasNameControlCharacters, reasonSchema, requestObject, typeError } from "./common";
import { ZEmailSchema } from "./participant";

const ZCodeSchema = z
  .string({ error: typeError("a string") })
  .trim()
  .regex(/^\d{6}$/, "Type the six digits from the e-mail.")
  .optional();

export const ZSignRequestSchema = requestObject({
  full_name: z.string({ error: typeError("a string") }).trim().min(1, "Type your full name.").max(200, "Your name can be at most 200 characters long."),
  code: ZCodeSchema,
});

export const ZDeclineRequestSchema = requestObject({
  reason: reasonSchema({ tooLong: "Your reason can be at most 2,000 characters long.", notPlain: "Your reason must be plain text: line breaks are fine, tabs and other control characters are not." }),
  code: ZCodeSchema,
});

/** Handing the signature on (docs/signing.md "Delegation"): who signs instead, and why (optional). */
export const ZDelegateRequestSchema = requestObject({
  name: z
    .string({ error: typeError("a string") })
    .trim()
    .min(1, "Type the name of the person who should sign.")
    .max(100, "The name can be at most 100 characters long.")
    .refine((name) => !hasNameControlCharacters(name), "The name must be one line of text, without line breaks, tabs or other control characters."),
  email: ZEmailSchema.refine((email) => email !== "", "Type the e-mail address of the person who should sign."),
  reason: reasonSchema({ tooLong: "The reason can be at most 2,000 characters long.", notPlain: "The reason must be plain text: line breaks are fine, tabs and other control characters are not." }),
  /** For a signatory whose signing needs an e-mailed code: handing on needs it too. */
  code: ZCodeSchema,
});

export type TSigningPageView = {
  contract: { name: string; state: string; signing_period_expiry_time: string | null };
  you: {
    name: string;
    email: string;
    party_name: string;
    signatory: boolean;
    sign_method: string;
    sign_method_supported: boolean;
    two_step_authentication_method: string;
    /** Too many wrong e-mailed codes: signing by code is locked until staff send a new invitation. */
    two_step_locked: boolean;
    sign_state: string;
    /** The stage (`sign_order`) of an ordered contract; null on a parallel one. */
    sign_order: number | null;
    /** False while earlier stages of an ordered contract have not all signed: the page waits. */
    your_turn: boolean;
    can_delegate: boolean;
  };
  parties: { name: string; my_party: boolean; participants: { name: string; title: string; signatory: boolean; sign_state: string }[] }[];
  data_fields: { name: string; value: string }[];
  /** The text to sign (lib/domain/contract-document.ts) and the files to read with it. */
  document: { sections: import("@/lib/domain/contract-document").TDocSection[] };
  files: { id: number; type: string; name: string; size: number | null; href: string }[];
  /**
   * The PDF staff uploaded as the document (docs/documents.md "Uploaded PDF"), shown in place of
   * the text, with its boxes; `mine`: this signer's. Null for a text contract.
   */
  uploaded_pdf: { href: string; pages: number; boxes: { page: number; x: number; y: number; width: number; height: number; kind: string; mine: boolean }[] } | null;
};
