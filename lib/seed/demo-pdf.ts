// The PDF a customer's lawyers wrote, for the demo contracts whose document is an uploaded PDF
// (docs/documents.md "Uploaded PDF"): a few pages of clauses laid out with the app's own PDF layout,
// fonts embedded, and a signature block on the last page where the demo places its boxes.
import { PdfLayout } from "@/lib/pdf/layout";

const CLAUSES: [string, string][] = [
  ["1. Scope", "The Supplier provides the services described in Schedule A to the Customer, with the care and skill of a professional supplier of such services."],
  ["2. Term", "This agreement starts on signing and runs for one year. It renews by a year at a time unless either party gives three months' written notice before the end of a year."],
  ["3. Fees and payment", "The Customer pays the fees of Schedule B within thirty days of an invoice. Late payments carry interest as the law allows."],
  ["4. Confidentiality", "Each party keeps the other's confidential information secret, uses it only for this agreement, and returns or destroys it when the agreement ends."],
  ["5. Liability", "Neither party is liable for indirect loss. Each party's total liability in a year is capped at the fees paid in that year, except for breach of confidentiality."],
  ["6. Governing law", "Swedish law governs this agreement. Disputes are settled by the Stockholm District Court."],
];

/** A master services agreement between `customer` and the supplier, ending in a signature block; its pages. */
export async function demoAgreementPdf(customer: string): Promise<Uint8Array> {
  const layout = await PdfLayout.create({ footer: `Master services agreement · Acme Nordic AB and ${customer}` });
  layout.doc.setTitle("Master services agreement");
  layout.doc.setCreationDate(new Date("2026-01-15T09:00:00Z"));
  layout.doc.setModificationDate(new Date("2026-01-15T09:00:00Z"));
  layout.title("Master services agreement");
  layout.paragraph([{ text: `Between Acme Nordic AB (the Supplier) and ${customer} (the Customer).` }]);
  for (const [heading, text] of CLAUSES) {
    layout.heading(heading);
    // Each clause at length, as lawyers write them.
    for (let n = 0; n < 4; n++) layout.paragraph([{ text }]);
  }
  layout.newPage();
  layout.heading("Signatures");
  layout.paragraph([{ text: "Signed electronically by the parties' representatives on the dates below." }]);
  return layout.finish();
}

/** Where the demo places the boxes of its `n`th signatory on the last page: signature, name, date (shares of the page). */
export function demoBoxesOf(n: number) {
  const y = 0.25 + n * 0.2;
  return [
    { kind: "signature" as const, x: 0.1, y, width: 0.4, height: 0.07 },
    { kind: "name" as const, x: 0.1, y: y + 0.08, width: 0.4, height: 0.03 },
    { kind: "date_signed" as const, x: 0.55, y: y + 0.08, width: 0.25, height: 0.03 },
  ];
}
