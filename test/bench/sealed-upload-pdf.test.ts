// The bench measures issue 46's bound on what it should: the sealed copy of an uploaded PDF of 50
// pages with 20 boxes (bench/sealed-upload-pdf.ts), stamped and certified, with a CPU time per build.
import { describe, expect, it } from "vitest";
import { measureSealedUploadPdf, SEALED_UPLOAD_BOXES, SEALED_UPLOAD_PAGES } from "@/bench/sealed-upload-pdf";

describe("the bench's sealed copy of an uploaded PDF", () => {
  it("is of a 50-page original with 20 boxes, and its build's CPU time is measured", async () => {
    const m = await measureSealedUploadPdf(1);
    expect(m).toMatchObject({ pages: SEALED_UPLOAD_PAGES, boxes: SEALED_UPLOAD_BOXES });
    expect(SEALED_UPLOAD_PAGES).toBe(50);
    expect(SEALED_UPLOAD_BOXES).toBe(20);
    // The certificate follows the original's pages.
    expect(m.sealedPages).toBeGreaterThan(m.pages);
    expect(m.cpuMs).toHaveLength(1);
    expect(m.cpuMs[0]).toBeGreaterThan(0);
  });
});
