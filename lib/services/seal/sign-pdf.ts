// The seal itself: a PAdES signature (SubFilter ETSI.CAdES.detached, a CMS SignedData over every
// byte of the file but the signature's own hex string) made with @signpdf and the seal's PKCS#12.
import { pdflibAddPlaceholder } from "@signpdf/placeholder-pdf-lib";
import signpdf from "@signpdf/signpdf";
import { P12Signer } from "@signpdf/signer-p12";
import { SUBFILTER_ETSI_CADES_DETACHED } from "@signpdf/utils";
import type { PDFDocument } from "pdf-lib";

import type { TSealIdentity } from "./seal-identity";

/** The signature dictionary's /Name: how /verify recognises a seal of this app even when the certificate bytes were altered. */
export const SEAL_SIGNATURE_NAME = "Contracts document seal";
/** Room for the CMS (hex): a 4096-bit key's signature and certificate chain fit with plenty to spare. */
const SIGNATURE_BYTES = 12_288;

/** Adds the signature field to `doc`, saves it and signs the bytes. `doc` must not be saved again. */
export async function sealPdf(doc: PDFDocument, identity: TSealIdentity, { reason, location, signingTime }: { reason: string; location: string; signingTime: Date }): Promise<Buffer> {
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason,
    contactInfo: "",
    name: SEAL_SIGNATURE_NAME,
    location,
    signingTime,
    signatureLength: SIGNATURE_BYTES,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: "contracts-admin",
  });
  // Classic cross-reference tables: @signpdf finds the placeholder by scanning the bytes, which an
  // object stream would compress away.
  const prepared = Buffer.from(await doc.save({ useObjectStreams: false, objectsPerTick: 50 }));
  return signpdf.sign(prepared, new P12Signer(identity.p12, { passphrase: identity.password }), signingTime);
}
