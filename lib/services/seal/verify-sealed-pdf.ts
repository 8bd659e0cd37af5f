// The public check of a sealed copy (POST /v1/verify, the /verify page; docs/security.md "The seal").
// `intact` needs all four: the signature's byte range is the whole file but the signature, the CMS
// signature over it verifies, its signer is the certificate this deployment sealed that copy with,
// and the file's SHA-256 is that of a copy this deployment stored. A file that carries this
// deployment's seal (its certificate, or the seal's signature name) but fails any of them was
// changed; anything else is unknown here. A copy whose contract was deleted is still told by the
// record the deletion kept of its seal (`deleted_contract_seals`): intact, with no contract to name.
import { createHash } from "node:crypto";

import type { Tx } from "@/lib/db";
import { DomainError } from "@/lib/domain/errors";

import { checkPdfSignature } from "./check-pdf-signature";
import { loadSealIdentity } from "./seal-identity";
import { SEAL_SIGNATURE_NAME } from "./sign-pdf";

export interface TSealVerdict {
  verdict: "intact" | "changed" | "unknown";
  message: string;
  sha256: string;
  /** The contract an intact copy was sealed for; null otherwise, and when that contract has been deleted. */
  contract: { id: number; name: string; completedAt: Date; sealedAt: Date | null } | null;
}

const SEALED_WHEN = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });

/** `30 November 2026 at 15:24 UTC`. */
const sealedWhen = (at: Date): string => `${SEALED_WHEN.format(at)} UTC`;

/** "%PDF-" within the first KiB, where readers look for it. */
function looksLikePdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 1024)).includes("%PDF-");
}

export async function verifySealedPdf({ db, pdf }: { db: Tx; pdf: Uint8Array }): Promise<TSealVerdict> {
  if (pdf.length === 0) throw new DomainError("validation_failed", "Send the PDF as the request body.", { parameterProblems: { body: ["is empty"] } });
  const sha256 = createHash("sha256").update(pdf).digest("hex");
  // A SEAL_P12 that cannot be opened stops sealing (the job logs it), not checking what was sealed.
  const fingerprint = await loadSealIdentity(db).then(
    (identity) => identity.fingerprint,
    () => null,
  );
  const check = await checkPdfSignature(pdf);
  const seal = await db.contractSeal.findFirst({
    where: { sha256, status: "done" },
    select: { certificateSha256: true, sealedAt: true, contract: { select: { id: true, name: true, stateUpdatedAt: true } } },
  });
  if (check.coversWholeFile && check.cmsValid && seal && check.signerFingerprint !== null && check.signerFingerprint === seal.certificateSha256) {
    return {
      verdict: "intact",
      message: `Sealed by this service and unchanged: the signed copy of contract ${seal.contract.id}, "${seal.contract.name}".`,
      sha256,
      contract: { id: seal.contract.id, name: seal.contract.name, completedAt: seal.contract.stateUpdatedAt, sealedAt: seal.sealedAt },
    };
  }
  if (check.coversWholeFile && check.cmsValid && check.signerFingerprint !== null) {
    const deleted = await db.deletedContractSeal.findFirst({
      where: { sha256, certificateSha256: check.signerFingerprint },
      select: { contractId: true, sealedAt: true },
    });
    if (deleted) {
      return {
        verdict: "intact",
        message: `Sealed by this service on ${sealedWhen(deleted.sealedAt)} and unchanged; its contract (${deleted.contractId}) has since been deleted here.`,
        sha256,
        contract: null,
      };
    }
  }
  const certificates = { certificateSha256: { in: check.certificateFingerprints } };
  const known =
    check.certificateFingerprints.length > 0 &&
    ((await db.contractSeal.findFirst({ where: certificates, select: { contractId: true } })) !== null ||
      (await db.deletedContractSeal.findFirst({ where: certificates, select: { contractId: true } })) !== null);
  const ours = check.signed && (check.name === SEAL_SIGNATURE_NAME || (fingerprint !== null && check.certificateFingerprints.includes(fingerprint)) || known);
  if (ours) {
    return { verdict: "changed", message: "This file carries this service's seal, but it is not the file that was sealed: it was changed after sealing.", sha256, contract: null };
  }
  // Bytes put before a sealed copy leave no PDF header where readers look, yet the seal is told
  // above; anything else without one is not a PDF.
  if (!looksLikePdf(pdf)) throw new DomainError("unsupported_media_type", "This is not a PDF: only a PDF can carry a seal.");
  return {
    verdict: "unknown",
    message: check.signed ? "This PDF is signed, but not sealed by this service." : "This PDF carries no seal of this service.",
    sha256,
    contract: null,
  };
}
