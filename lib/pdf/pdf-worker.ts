// Runs a script that reads an uploaded PDF in a worker thread with its own small heap and a time
// limit, so a PDF bomb (a stream or object stream that inflates to gigabytes, a page tree that
// loops, millions of objects) costs that worker, never the server: its decoded streams pass a
// budget, or it runs out of heap or time, and the caller hears why. The inspection of a PDF uploaded
// as the contract's document (inspect-uploaded-pdf.ts) and of an attachment's
// (read-attachment-pdf.ts) run one such script.
import { Worker } from "node:worker_threads";
import pLimit from "p-limit";
import { DomainError } from "@/lib/domain/errors";

const TIME_LIMIT_MS = 10_000;
/**
 * Workers one process runs at once: each may take its heap and the PDF's buffers besides (about
 * 285 MB for a 23 MB PDF of 99,000 objects), so three uploads at once took 1.2 GB. More wait their
 * turn (their time limit starts with their worker).
 */
export const MAX_PDF_WORKERS = 2;
const workers = pLimit(MAX_PDF_WORKERS);
/**
 * PDFs that may wait for a worker in a process. Each waits with its bytes in memory (up to 25 MiB),
 * so a burst of uploads past this is answered 503 at once rather than held without bound.
 */
export const MAX_WAITING_PDF_CHECKS = 8;
const HEAP_MB = 160;
/** What the object and cross-reference streams of one PDF may inflate to, together. */
const MAX_DECODED_BYTES = 64 * 1024 * 1024;

// Evaluated as CommonJS in the worker, so it loads pdf-lib from node_modules and not from the
// server's bundle. The script that follows it has `parentPort`, `workerData` (its `bytes` are the
// PDF's), `pdfLib` and `overBudget` in scope, and posts one message. pdf-lib may catch the budget's
// error and throw its own (an invalid object): `overBudget` tells that the budget was what ended it.
const PRELUDE = `
const { parentPort, workerData } = require("node:worker_threads");
const pdfLib = require("pdf-lib");
// pdf-lib decodes object and cross-reference streams while loading, to their full size: bound what
// all of them may inflate to together (a bomb's bytes live outside the heap limit).
const decoding = require("pdf-lib/cjs/core/streams/decode");
const decodeFully = decoding.decodePDFRawStream;
let budget = workerData.maxDecodedBytes;
let overBudget = false;
// Read in pieces: asking for the whole budget at once made pdf-lib allocate it, 64 MiB for every
// stream (a PDF of 2,000 object streams took 11 s to load).
const PIECE = 64 * 1024;
decoding.decodePDFRawStream = (raw) => {
  const stream = decodeFully(raw);
  return {
    decode() {
      let total = 0;
      for (;;) {
        const piece = stream.getBytes(PIECE).length;
        total += piece;
        if (total > budget) {
          overBudget = true;
          throw Object.assign(new Error("decoded streams too large"), { name: "PdfBomb" });
        }
        if (piece < PIECE) break;
      }
      budget -= total;
      stream.reset();
      return stream.getBytes(total);
    },
  };
};
`;

/**
 * Runs `script` (CommonJS, after the prelude above) on `bytes`, once one of the `MAX_PDF_WORKERS`
 * slots is free, and resolves with the one message it posts, or with `failed(reason)` when the
 * worker ends otherwise: "time" (10 s), the worker's error code (e.g. ERR_WORKER_OUT_OF_MEMORY past
 * its 160 MB heap), or "exit". The slot is free again once the worker is gone. With
 * `MAX_WAITING_PDF_CHECKS` already waiting, a 503 `service_unavailable` (retry in a few seconds).
 */
export function runPdfWorker<T>(script: string, bytes: Uint8Array, data: Record<string, unknown>, failed: (reason: string) => T): Promise<T> {
  if (workers.pendingCount >= MAX_WAITING_PDF_CHECKS) {
    return Promise.reject(new DomainError("service_unavailable", "Too many PDFs are being checked right now; upload again in a few seconds.", { headers: { "Retry-After": "5" } }));
  }
  return workers(() => new Promise<T>((resolve) => {
    const worker = new Worker(PRELUDE + script, {
      eval: true,
      workerData: { ...data, bytes, maxDecodedBytes: MAX_DECODED_BYTES },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const done = (result: T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate().finally(() => resolve(result));
    };
    const timer = setTimeout(() => done(failed("time")), TIME_LIMIT_MS);
    worker.once("message", (message: T) => done(message));
    worker.once("error", (error) => done(failed((error as { code?: string }).code ?? error.name)));
    worker.once("exit", () => done(failed("exit")));
  }));
}
