// The seal itself: a PAdES signature (SubFilter ETSI.CAdES.detached, a CMS SignedData over every
// byte of the file but the signature's own hex string) made with @signpdf and the seal's PKCS#12.
import { Worker } from "node:worker_threads";

import { pdflibAddPlaceholder } from "@signpdf/placeholder-pdf-lib";
import { SUBFILTER_ETSI_CADES_DETACHED } from "@signpdf/utils";
import type { PDFDocument } from "pdf-lib";

import { SEAL_SIGNATURE_BYTES } from "@/lib/domain/file-content";

import type { TSealIdentity } from "./seal-identity";

/** The signature dictionary's /Name: how /verify recognises a seal of this app even when the certificate bytes were altered. */
export const SEAL_SIGNATURE_NAME = "Contracts document seal";

/** Adds the signature field to `doc`, saves it and signs the bytes. `doc` must not be saved again. */
export async function sealPdf(doc: PDFDocument, identity: TSealIdentity, { reason, location, signingTime }: { reason: string; location: string; signingTime: Date }): Promise<Buffer> {
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason,
    contactInfo: "",
    name: SEAL_SIGNATURE_NAME,
    location,
    signingTime,
    // Room for the CMS (hex): a 4096-bit key's signature and certificate chain fit with plenty to spare.
    signatureLength: SEAL_SIGNATURE_BYTES,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: "contracts-admin",
  });
  // Classic cross-reference tables: @signpdf finds the placeholder by scanning the bytes, which an
  // object stream would compress away.
  const prepared = Buffer.from(await doc.save({ useObjectStreams: false, objectsPerTick: 50 }));
  return signInWorker(prepared, identity, signingTime);
}

// node-forge hashes the file and signs with RSA in plain JavaScript (tens of milliseconds at once):
// done in a worker thread, so requests on this instance are not held up meanwhile. Evaluated as
// CommonJS in the worker, so it loads @signpdf from node_modules and not from the server's bundle.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const signpdf = require("@signpdf/signpdf").default;
const { P12Signer } = require("@signpdf/signer-p12");
signpdf
  .sign(Buffer.from(workerData.pdf), new P12Signer(Buffer.from(workerData.p12), { passphrase: workerData.password }), new Date(workerData.signingTime))
  .then((signed) => parentPort.postMessage({ ok: true, pdf: signed }))
  .catch((error) => parentPort.postMessage({ ok: false, error: String((error && error.message) || error) }));
`;
const SIGN_TIME_LIMIT_MS = 60_000;

function signInWorker(pdf: Buffer, identity: TSealIdentity, signingTime: Date): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pdf, p12: identity.p12, password: identity.password, signingTime: signingTime.getTime() } });
    let settled = false;
    const done = (error: Error | null, signed?: Buffer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      if (error) reject(error);
      else resolve(signed!);
    };
    const timer = setTimeout(() => done(new Error("signing took too long")), SIGN_TIME_LIMIT_MS);
    worker.once("message", (m: { ok: true; pdf: Uint8Array } | { ok: false; error: string }) => (m.ok ? done(null, Buffer.from(m.pdf)) : done(new Error(`signing failed: ${m.error}`))));
    worker.once("error", (error) => done(error));
    worker.once("exit", (code) => done(new Error(`the signing worker exited (${code})`)));
  });
}
