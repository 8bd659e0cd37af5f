import { z } from "zod";

// The audit chain's verdict (GET /v1/contracts/{contract_id}/events/verify) and the public check of
// a sealed PDF (POST /v1/verify); docs/security.md "The seal" and "The audit chain".

export const ZAuditChainVerdictSchema = z
  .object({
    intact: z.boolean().meta({ description: "Every event is where it was written, with the content it was written with." }),
    events: z.number().int().meta({ description: "Events in the contract's chain." }),
    last_hash: z.string().nullable().meta({ description: "The newest event's chain hash (hex SHA-256), as the completion certificate prints it; null without events." }),
    broken_at: z
      .object({
        position: z.number().int().meta({ description: "1 for the first event; one past the last when the newest events were deleted." }),
        event_id: z.number().int().nullable(),
        reason: z.string(),
      })
      .nullable()
      .meta({ description: "The first place the chain does not hold; null while intact." }),
  })
  .meta({ id: "AuditChainVerdict" });

export const SEAL_VERDICTS = ["intact", "changed", "unknown"] as const;

export const ZSealVerificationSchema = z
  .object({
    verdict: z.enum(SEAL_VERDICTS).meta({
      description:
        "`intact`: this deployment sealed the file and not one byte has changed since. `changed`: it carries this deployment's seal, " +
        "but its bytes are not the ones sealed. `unknown`: no seal of this deployment is in it (another signer, no signature, not a PDF).",
    }),
    message: z.string().meta({ description: "The verdict in a sentence." }),
    sha256: z.string().meta({ description: "SHA-256 (hex) of the uploaded bytes." }),
    contract: z
      .object({ id: z.number().int(), name: z.string(), completed_time: z.string().nullable(), sealed_time: z.string().nullable() })
      .nullable()
      .meta({
        description:
          "The contract the file is the sealed copy of, when intact; null otherwise, and for an intact copy whose contract has since been deleted here (the message says so).",
      }),
  })
  .meta({ id: "SealVerification" });

export type TAuditChainVerdict = z.infer<typeof ZAuditChainVerdictSchema>;
export type TSealVerification = z.infer<typeof ZSealVerificationSchema>;
