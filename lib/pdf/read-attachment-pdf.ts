// What is in a PDF attached to a contract: the document's script (uploaded-pdf-script.ts) in the
// bounded worker of pdf-worker.ts (heap, time, a budget for inflated streams, at most MAX_PDF_OBJECTS
// objects and MAX_WALK_STEPS steps), read as far as its active content and pages' count.
// lib/domain/attachment-pdf.ts decides on it.
import { MAX_PDF_OBJECTS, MAX_PDF_PAGES } from "@/lib/domain/file-content";
import type { TUploadedPdfRead } from "@/lib/domain/uploaded-pdf";
import { MAX_FORM_DEPTH, MAX_WALK_STEPS } from "./inspect-uploaded-pdf";
import { runPdfWorker } from "./pdf-worker";
import { UPLOADED_PDF_SCRIPT } from "./uploaded-pdf-script";

export function readAttachmentPdf(bytes: Uint8Array): Promise<TUploadedPdfRead> {
  return runPdfWorker<TUploadedPdfRead>(
    UPLOADED_PDF_SCRIPT,
    bytes,
    { attachment: true, maxPages: MAX_PDF_PAGES, maxObjects: MAX_PDF_OBJECTS, maxSteps: MAX_WALK_STEPS, maxFormDepth: MAX_FORM_DEPTH, signatureBytes: 0 },
    () => ({ outcome: "too_complex" }),
  );
}
