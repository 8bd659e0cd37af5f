// The signing page's own API (/api/sign/{token}, docs/api.md "Publishing and signing"): used by the
// page a participant opens from their invitation, not part of /v1.
import { z } from "zod";

import { requestObject, typeError } from "./common";

const ZCodeSchema = z
  .string({ error: typeError("a string") })
  .trim()
  .regex(/^\d{6}$/, "must be the six digits from the e-mail")
  .optional();

export const ZSignRequestSchema = requestObject({
  full_name: z.string({ error: typeError("a string") }).trim().min(1, "type your full name").max(200, "must be at most 200 characters"),
  code: ZCodeSchema,
});

export const ZDeclineRequestSchema = requestObject({
  reason: z.string({ error: typeError("a string") }).trim().max(2000, "must be at most 2000 characters").default(""),
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
    sign_state: string;
  };
  parties: { name: string; my_party: boolean; participants: { name: string; title: string; signatory: boolean; sign_state: string }[] }[];
  data_fields: { name: string; value: string }[];
};
