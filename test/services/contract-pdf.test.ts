// The contract PDF checked with real tools: qpdf for its structure, pdftotext for its text
// (Debian's qpdf and poppler-utils; .ci/run installs them).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderDocument, type TDocInput } from "@/lib/domain/contract-document";
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

const participant = (name: string, signState = "undecided") => ({ name, title: "", email: `${name}@example.org`, signatory: true, signState, signStateUpdatedAt: signState === "signed" ? new Date("2026-11-26T10:00:00Z") : null });

const input = (paragraphs: number): TDocInput => ({
  name: "Leveransavtal – Göteborg",
  body: {
    sections: [
      { heading: "Parter", text: "{{parties}}" },
      { heading: "1. Leverans", text: "Ordernummer {{field.po}}. Belopp {{field.amount}} {{field.currency}}. Leveransdag {{field.date}}." },
      ...Array.from({ length: paragraphs }, (_, i) => ({
        heading: `${i + 2}. Villkor`,
        text: "Leverantören ansvarar för att varorna är i gott skick när de når köparen. Kjøper og selger er enige om æ, ø og å. ".repeat(4),
      })),
      { heading: "Underskrifter", text: "{{signatories}}" },
    ],
  },
  dataFields: [
    { customId: "po", name: "PO number", value: "PO-2026-ÅÄÖ-17" },
    { customId: "amount", name: "Amount", value: "125 000" },
    { customId: "currency", name: "Currency", value: "SEK" },
    { customId: "date", name: "Delivery date", value: "" },
  ],
  parties: [
    { name: "Acme Nordic AB", type: "company", identificationNumber: "556677-8899", countryCode: "SE", myParty: true, participants: [participant("Åsa Öberg", "signed")] },
    { name: "Fjord Shipping AS", type: "company", identificationNumber: "", countryCode: "NO", myParty: false, participants: [participant("Søren Æbeltoft"), participant("Jörg Ærø")] },
  ],
});

describe("the contract PDF", () => {
  it("passes qpdf, and pdftotext finds every data field value, every signer, the Nordic letters and the draft mark", async () => {
    const bytes = await renderContractPdf(renderDocument(input(3)), { contractId: 42, draft: true, attachments: [{ name: "Prislista.pdf", sha256: "ab".repeat(32) }] });
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
    const { text } = check(await renderContractPdf(renderDocument(input(1)), { contractId: 42, draft: false }), "final.pdf");
    expect(text).not.toContain(DRAFT_MARK);
    expect(text).toContain("signed 2026-11-26 10:00 UTC");
  });

  it("builds a 10-page contract in under 1 s of CPU", async () => {
    const document = renderDocument(input(58));
    await renderContractPdf(document, { contractId: 1, draft: true }); // warm: fonts read, code compiled
    const before = process.cpuUsage();
    const bytes = await renderContractPdf(document, { contractId: 1, draft: true });
    const cpu = process.cpuUsage(before);
    const ms = (cpu.user + cpu.system) / 1000;
    const { pages } = check(bytes, "ten.pdf");
    expect(pages).toBeGreaterThanOrEqual(10);
    console.log(`contract PDF: ${pages} pages in ${ms.toFixed(0)} ms of CPU`);
    expect(ms).toBeLessThan(1000);
  });
});
