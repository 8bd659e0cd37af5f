// Whether a PDF may be attached to a contract (docs/documents.md "Attachments"), from what the
// bounded worker read in it (lib/pdf/read-attachment-pdf.ts): the first problem, as one plain
// sentence, or null. Pure. Signers download attachments and open them in their own readers, so
// what acts there is refused as in the document (lib/domain/uploaded-pdf.ts); a signature already in
// it is fine: an attachment is neither stamped nor sealed itself.
import { MAX_PDF_OBJECTS, MAX_PDF_PAGES } from "./file-content";
import { activeContentProblem, type TUploadedPdfRead } from "./uploaded-pdf";

const UNREADABLE_ATTACHMENT = `The PDF cannot be read: it is damaged, encrypted, or larger inside than the service reads (${MAX_PDF_PAGES} pages, ${MAX_PDF_OBJECTS.toLocaleString("en-US")} objects).`;

export function attachmentPdfProblem(read: TUploadedPdfRead): string | null {
  if (read.outcome !== "read" || read.encrypted || read.pages < 1 || read.pages > MAX_PDF_PAGES) return UNREADABLE_ATTACHMENT;
  if (read.activeContent.length > 0) return activeContentProblem(read.activeContent, { carrier: "an attachment", verb: "attach" });
  return null;
}
