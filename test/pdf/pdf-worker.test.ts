// The bounded worker that reads uploaded PDFs: at most MAX_PDF_WORKERS run at once in a process,
// the others waiting their turn (each may take its heap and the PDF's buffers besides).
import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/domain/errors";
import { MAX_PDF_WORKERS, MAX_WAITING_PDF_CHECKS, runPdfWorker } from "@/lib/pdf/pdf-worker";

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

  it(`lets at most ${MAX_WAITING_PDF_CHECKS} wait; the next is a 503 at once, and a slot freed takes PDFs again`, async () => {
    const QUICK = `parentPort.postMessage({ started: Date.now(), ended: Date.now() });`;
    const run = (script: string) => runPdfWorker<{ started: number }>(script, new Uint8Array(0), {}, () => ({ started: 0 }));
    const held = Array.from({ length: MAX_PDF_WORKERS + MAX_WAITING_PDF_CHECKS }, () => run(HOLD));
    const refused = await run(QUICK).then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ status: 503, key: "service_unavailable", headers: { "Retry-After": "5" } });
    expect((await Promise.all(held)).every((r) => r.started > 0)).toBe(true);
    expect((await run(QUICK)).started).toBeGreaterThan(0);
  });
});
