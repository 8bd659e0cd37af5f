// The bounded worker that reads uploaded PDFs: at most MAX_PDF_WORKERS run at once in a process,
// the others waiting their turn (each may take its heap and the PDF's buffers besides).
import { describe, expect, it } from "vitest";
import { MAX_PDF_WORKERS, runPdfWorker } from "@/lib/pdf/pdf-worker";

// A script that holds its slot long enough for every other worker to start meanwhile, were it let.
const HOLD = `const started = Date.now(); setTimeout(() => parentPort.postMessage({ started, ended: Date.now() }), 1500);`;

describe("runPdfWorker", () => {
  it(`runs at most ${MAX_PDF_WORKERS} workers at once; the next starts when one is gone`, async () => {
    const runs = await Promise.all(
      Array.from({ length: MAX_PDF_WORKERS + 1 }, () => runPdfWorker<{ started: number; ended: number }>(HOLD, new Uint8Array(0), {}, () => ({ started: 0, ended: 0 }))),
    );
    expect(runs.every((run) => run.started > 0)).toBe(true);
    // The most running at one instant: at a start, those started by then and not yet ended.
    const running = (at: number) => runs.filter((run) => run.started <= at && run.ended > at).length;
    expect(Math.max(...runs.map((run) => running(run.started)))).toBe(MAX_PDF_WORKERS);
  });
});
