// Whether an uploaded PDF is one pdf-lib can read, within bounds. Parsing runs in a worker thread
// with its own small heap and a time limit, so a PDF bomb (a stream or object stream that inflates
// to gigabytes, a page tree that loops, millions of objects) costs that worker, never the server:
// its decoded streams pass a budget, or it runs out of heap or time, and the file is refused.
import { Worker } from "node:worker_threads";
import { MAX_PDF_OBJECTS, MAX_PDF_PAGES } from "@/lib/domain/file-content";

const TIME_LIMIT_MS = 10_000;
const HEAP_MB = 160;
/** What the object and cross-reference streams of one PDF may inflate to, together. */
const MAX_DECODED_BYTES = 64 * 1024 * 1024;

// Evaluated as CommonJS in the worker, so it loads pdf-lib from node_modules and not from the
// server's bundle.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { PDFDocument } = require("pdf-lib");
// pdf-lib decodes object and cross-reference streams while loading, to their full size: bound what
// all of them may inflate to together (a bomb's bytes live outside the heap limit).
const decoding = require("pdf-lib/cjs/core/streams/decode");
const decodeFully = decoding.decodePDFRawStream;
let budget = workerData.maxDecodedBytes;
decoding.decodePDFRawStream = (raw) => {
  const stream = decodeFully(raw);
  return {
    decode() {
      const bytes = stream.getBytes(budget + 1);
      if (bytes.length > budget) throw Object.assign(new Error("decoded streams too large"), { name: "PdfBomb" });
      budget -= bytes.length;
      return bytes;
    },
  };
};
(async () => {
  try {
    const doc = await PDFDocument.load(workerData.bytes, { updateMetadata: false, throwOnInvalidObject: true });
    const objects = doc.context.enumerateIndirectObjects().length;
    if (objects > workerData.maxObjects) return parentPort.postMessage({ ok: false, reason: "objects" });
    const pages = doc.getPageCount();
    if (pages < 1 || pages > workerData.maxPages) return parentPort.postMessage({ ok: false, reason: "pages" });
    parentPort.postMessage({ ok: true, pages });
  } catch (error) {
    parentPort.postMessage({ ok: false, reason: String(error && error.name) });
  }
})();
`;

export type TPdfCheck = { ok: true; pages: number } | { ok: false; reason: string };

export function checkPdf(bytes: Uint8Array): Promise<TPdfCheck> {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { bytes, maxPages: MAX_PDF_PAGES, maxObjects: MAX_PDF_OBJECTS, maxDecodedBytes: MAX_DECODED_BYTES },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const done = (result: TPdfCheck) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(() => done({ ok: false, reason: "time" }), TIME_LIMIT_MS);
    worker.once("message", (message: TPdfCheck) => done(message));
    worker.once("error", (error) => done({ ok: false, reason: (error as { code?: string }).code ?? error.name }));
    worker.once("exit", () => done({ ok: false, reason: "exit" }));
  });
}
