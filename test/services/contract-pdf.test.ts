// The contract PDF checked with real tools: qpdf for its structure, pdftotext for its text
// (Debian's qpdf and poppler-utils; .ci/run installs them).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { benchContractDocument } from "@/bench/contract-pdf";
import { DRAFT_MARK, renderContractPdf } from "@/lib/pdf/contract-pdf";

const dir = mkdtempSync(path.join(tmpdir(), "contract-pdf-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function check(bytes: Uint8Array, name: string): { text: string; pages: number } {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  // qpdf exits non-zero on any structural error.
  execFileSync("qpdf", ["--check", file], { stdio: "pipe" });
  const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))![1]);
  return { text, pages };
}

// The bench's own 10-page contract (bench/contract-pdf.ts), in as many paragraphs as each test needs.

describe("the contract PDF", () => {
  it("passes qpdf, and pdftotext finds every data field value, every signer, the Nordic letters and the draft mark", async () => {
    const bytes = await renderContractPdf(benchContractDocument(3), { contractId: 42, draft: true, attachments: [{ name: "Prislista.pdf", sha256: "ab".repeat(32) }] });
    const { text } = check(bytes, "draft.pdf");
    for (const value of ["PO-2026-ÅÄÖ-17", "125 000", "SEK", "Åsa Öberg", "Søren Æbeltoft", "Jörg Ærø", "Acme Nordic AB", "Fjord Shipping AS", "Prislista.pdf"]) {
      expect(text).toContain(value);
    }
    for (const letter of ["å", "ä", "ö", "ø", "æ"]) expect(text).toContain(letter);
    // The empty data field is shown by name, marked.
    expect(text).toContain("[Delivery date]");
    expect(text).toContain(DRAFT_MARK);
  });

  it("a signed contract's PDF is not marked as a draft", async () => {
    const { text } = check(await renderContractPdf(benchContractDocument(1), { contractId: 42, draft: false }), "final.pdf");
    expect(text).not.toContain(DRAFT_MARK);
    expect(text).toContain("signed 2026-11-26 10:00 UTC");
  });

  // How fast is the benchmark's target ("contract PDF of 10 pages", bench/contract-pdf.ts), measured
  // by `npm run bench`: a time limit here would fail on a busy machine, not on slow code.
  it("builds a 10-page contract, every page a valid PDF page", async () => {
    const { pages } = check(await renderContractPdf(benchContractDocument(58), { contractId: 1, draft: true }), "ten.pdf");
    expect(pages).toBeGreaterThanOrEqual(10);
  });
});
