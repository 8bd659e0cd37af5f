// Whether a PDF uploaded as the contract's document (upload_as=expanded_pdf) may become it
// (docs/documents.md). Cheap refusals first, in this process: over 25 MB, or not a PDF by its
// content. Then the bounded worker of pdf-worker.ts reads it (uploaded-pdf-script.ts) and
// lib/domain/uploaded-pdf.ts turns what it found into the one sentence that refuses it, or none.
import { MAX_PDF_OBJECTS, MAX_UPLOADED_PDF_BYTES, MAX_UPLOADED_PDF_PAGES, SEAL_SIGNATURE_BYTES, sniffAttachmentType } from "@/lib/domain/file-content";
import { uploadedPdfProblem, type TUploadedPdfRead, type TUploadedPdfReport } from "@/lib/domain/uploaded-pdf";
import { runPdfWorker } from "./pdf-worker";
import { UPLOADED_PDF_SCRIPT } from "./uploaded-pdf-script";

/** Steps (objects and entries looked at) all the worker's walks may take together. */
export const MAX_WALK_STEPS = 5_000_000;
/** How deep Form XObjects (and patterns, appearance streams) may nest in the fonts' walk. */
export const MAX_FORM_DEPTH = 16;

export type TUploadedPdfInspection =
  /** `document`: the PDF as it is kept (lib/domain/uploaded-pdf.ts `TUploadedPdfRead`). */
  | { ok: true; pages: number; document: Uint8Array }
  /**
   * One plain sentence for a person, e.g. "The PDF is password-protected; …"; `refused`: too large,
   * not a PDF by content, or a PDF that may not become the document (the API's 413, 415 or 400).
   */
  | { ok: false; refused: "too_large" | "not_a_pdf" | "unacceptable"; problem: string };

export async function inspectUploadedPdf(bytes: Uint8Array): Promise<TUploadedPdfInspection> {
  const report: TUploadedPdfReport = { bytes: bytes.length, isPdf: false };
  if (bytes.length <= MAX_UPLOADED_PDF_BYTES) report.isPdf = sniffAttachmentType(bytes) === "application/pdf";
  if (report.isPdf) {
    report.read = await runPdfWorker<TUploadedPdfRead>(
      UPLOADED_PDF_SCRIPT,
      bytes,
      { maxPages: MAX_UPLOADED_PDF_PAGES, maxObjects: MAX_PDF_OBJECTS, maxSteps: MAX_WALK_STEPS, maxFormDepth: MAX_FORM_DEPTH, signatureBytes: SEAL_SIGNATURE_BYTES },
      () => ({ outcome: "too_complex" }),
    );
  }
  const problem = uploadedPdfProblem(report);
  if (problem === null && report.read?.outcome === "read" && report.read.document) return { ok: true, pages: report.read.pages, document: report.read.document };
  // The domain finds a problem in every report that is not a read PDF; the fallback only satisfies the types.
  const refused = report.bytes > MAX_UPLOADED_PDF_BYTES ? "too_large" : !report.isPdf ? "not_a_pdf" : "unacceptable";
  return { ok: false, refused, problem: problem ?? "The PDF cannot be read." };
}
