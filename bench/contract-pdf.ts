// Issue 36's bound on the contract PDF: a 10-page contract builds in under 1 s of CPU. Measured in
// the bench's own process (renderContractPdf is plain JavaScript: pdf-lib and fontkit, no I/O), at
// a moment when the process does nothing else (after the build, before any server starts), so its
// CPU time (process.cpuUsage) is the rendering's. Once to warm up (fonts read, code compiled), then
// `RUNS` times; the slowest run is the one checked.
import { PDFDocument } from "pdf-lib";
import { renderDocument, type TDocInput } from "@/lib/domain/contract-document";
import { renderContractPdf } from "@/lib/pdf/contract-pdf";

export interface ContractPdfMeasurement {
  pages: number;
  bytes: number;
  /** CPU time (user + system) of each measured run, ms. */
  cpuMs: number[];
  /** Wall time of each measured run, ms (the render yields between blocks, so it can exceed the CPU time). */
  wallMs: number[];
}

const RUNS = 3;

const signer = (name: string, signed = false) => ({
  name,
  title: "",
  email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.org`,
  signatory: true,
  signState: signed ? "signed" : "undecided",
  signStateUpdatedAt: signed ? new Date("2026-11-26T10:00:00Z") : null,
});

/**
 * A contract of `paragraphs` terms (58 make 10 pages, test/bench/contract-pdf.test.ts holds that):
 * data fields (one empty, marked), two companies with three signers, the Nordic letters the fonts
 * must carry.
 */
export function benchContractDocument(paragraphs = 58) {
  const input: TDocInput = {
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
      { name: "Acme Nordic AB", type: "company", identificationNumber: "556677-8899", countryCode: "SE", myParty: true, participants: [signer("Åsa Öberg", true)] },
      { name: "Fjord Shipping AS", type: "company", identificationNumber: "", countryCode: "NO", myParty: false, participants: [signer("Søren Æbeltoft"), signer("Jörg Ærø")] },
    ],
  };
  return renderDocument(input);
}

/** The PDF's page count, as a reader sees it. */
export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  return (await PDFDocument.load(bytes)).getPageCount();
}

export async function measureContractPdf(runs = RUNS): Promise<ContractPdfMeasurement> {
  const document = benchContractDocument();
  const options = { contractId: 1, draft: true };
  const warm = await renderContractPdf(document, options);
  const cpuMs: number[] = [];
  const wallMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const before = process.cpuUsage();
    await renderContractPdf(document, options);
    const cpu = process.cpuUsage(before);
    wallMs.push(Math.round((performance.now() - t0) * 10) / 10);
    cpuMs.push(Math.round((cpu.user + cpu.system) / 100) / 10);
  }
  return { pages: await pdfPageCount(warm), bytes: warm.byteLength, cpuMs, wallMs };
}
