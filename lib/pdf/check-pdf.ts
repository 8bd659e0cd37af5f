// Whether an uploaded attachment's PDF is one pdf-lib can read, within bounds: parsed in the bounded
// worker of pdf-worker.ts (heap, time, a budget for inflated streams), then at most MAX_PDF_OBJECTS
// objects and 1 to MAX_PDF_PAGES pages, else the file is refused.
import { MAX_PDF_OBJECTS, MAX_PDF_PAGES } from "@/lib/domain/file-content";
import { runPdfWorker } from "./pdf-worker";

const SCRIPT = `
(async () => {
  try {
    const doc = await pdfLib.PDFDocument.load(workerData.bytes, { updateMetadata: false, throwOnInvalidObject: true });
    const objects = doc.context.enumerateIndirectObjects().length;
    if (objects > workerData.maxObjects) return parentPort.postMessage({ ok: false, reason: "objects" });
    const pages = doc.getPageCount();
    if (pages < 1 || pages > workerData.maxPages) return parentPort.postMessage({ ok: false, reason: "pages" });
    parentPort.postMessage({ ok: true, pages });
  } catch (error) {
    parentPort.postMessage({ ok: false, reason: overBudget ? "PdfBomb" : String(error && error.name) });
  }
})();
`;

export type TPdfCheck = { ok: true; pages: number } | { ok: false; reason: string };

export function checkPdf(bytes: Uint8Array): Promise<TPdfCheck> {
  return runPdfWorker<TPdfCheck>(SCRIPT, bytes, { maxPages: MAX_PDF_PAGES, maxObjects: MAX_PDF_OBJECTS }, (reason) => ({ ok: false, reason }));
}
