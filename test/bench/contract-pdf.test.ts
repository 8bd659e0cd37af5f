// The bench measures issue 36's bound on the contract it should: the document bench/contract-pdf.ts
// builds is at least 10 pages, and the measurement gives a CPU time per build.
import { describe, expect, it } from "vitest";
import { benchContractDocument, measureContractPdf, pdfPageCount } from "@/bench/contract-pdf";
import { renderContractPdf } from "@/lib/pdf/contract-pdf";

describe("the bench's contract PDF", () => {
  it("is a contract of at least 10 pages, and its build's CPU time is measured", async () => {
    const m = await measureContractPdf(1);
    expect(m.pages).toBeGreaterThanOrEqual(10);
    expect(m.cpuMs).toHaveLength(1);
    expect(m.cpuMs[0]).toBeGreaterThan(0);
    // Not far past 10 either: the bound is for a 10-page contract.
    expect(m.pages).toBeLessThanOrEqual(12);
  });

  it("counts pages as a reader does", async () => {
    expect(await pdfPageCount(await renderContractPdf(benchContractDocument(1), { contractId: 1, draft: true }))).toBe(1);
  });
});
