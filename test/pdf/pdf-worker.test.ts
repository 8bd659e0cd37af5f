// The bounded worker that reads uploaded PDFs: at most MAX_PDF_WORKERS run at once in a process,
// the others waiting their turn (each may take its heap and the PDF's buffers besides).
import { describe, expect, it } from "vitest";
import { MAX_PDF_WORKERS, runPdfWorker } from "@/lib/pdf/pdf-worker";

// A script that holds its slot for a moment and says when it ran.
const HOLD = `const started = Date.now(); setTimeout(() => parentPort.postMessage({ started, ended: Date.now() }), 400);`;

describe("runPdfWorker", () => {
  it(`runs at most ${MAX_PDF_WORKERS} workers at once; the next starts when one is gone`, async () => {
    const runs = await Promise.all(
      Array.from({ length: MAX_PDF_WORKERS + 1 }, () => runPdfWorker<{ started: number; ended: number }>(HOLD, new Uint8Array(0), {}, () => ({ started: 0, ended: 0 }))),
    );
    const byStart = [...runs].sort((a, b) => a.started - b.started);
    const last = byStart.at(-1)!;
    const first = byStart.slice(0, MAX_PDF_WORKERS);
    // The first ones overlapped; the last one started only after one of them had ended.
    expect(first.every((run) => run.started > 0)).toBe(true);
    expect(Math.max(...first.map((r) => r.started))).toBeLessThan(Math.min(...first.map((r) => r.ended)));
    expect(last.started).toBeGreaterThanOrEqual(Math.min(...first.map((r) => r.ended)));
  });
});
