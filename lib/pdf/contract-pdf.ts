// The contract as a PDF: the document of lib/domain/contract-document.ts laid out with
// lib/pdf/layout.ts. Until the contract is signed the PDF says on every page that it is not final.
import type { TDocument, TSegment } from "@/lib/domain/contract-document";
import { MISSING, MISSING_BACKGROUND, PdfLayout, type TRun } from "./layout";

export const DRAFT_MARK = "Draft — not final";

export interface TContractPdfOptions {
  contractId: number;
  /** Not final (a draft or pending contract): a banner on every page and in the footer. */
  draft: boolean;
  attachments?: readonly { name: string; sha256: string | null }[];
  /** Fixed dates make the bytes reproducible (tests, the sealed copy). */
  creationDate?: Date;
}

const runsOf = (segments: readonly TSegment[]): TRun[] =>
  segments.map((s) => ("missing" in s && s.missing ? { text: s.text, color: MISSING, highlight: MISSING_BACKGROUND } : { text: s.text }));

/** Lets other requests run between blocks: a long contract is laid out in many short turns. */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Lays the contract out on `layout` (new pages at its end): title, parties, sections, signatories, attachments. */
export async function writeContract(layout: PdfLayout, document: TDocument, options: Pick<TContractPdfOptions, "attachments">): Promise<void> {
  layout.title(document.title);
  if (document.parties.length > 0) {
    layout.heading("Parties");
    layout.list(document.parties.map((p) => [{ text: p.name, bold: true }, { text: ` (${p.details})` }]));
  }
  // The term is part of what is signed (docs/lifecycle.md): stated before the text.
  if (document.term.length > 0) {
    layout.heading("Term");
    layout.list(document.term.map((row) => [{ text: `${row.label}: `, bold: true }, { text: row.value }]));
  }
  for (const section of document.sections) {
    if (section.heading) layout.heading(section.heading);
    for (const block of section.blocks) {
      if (block.kind === "paragraph") layout.paragraph(runsOf(block.segments));
      else layout.list(block.items.map(runsOf));
      await yieldTurn();
    }
  }
  layout.heading("Signatures");
  if (document.signatories.length === 0) layout.paragraph([{ text: "No signatories yet." }]);
  for (const s of document.signatories) {
    const decided = s.signState === "signed" ? `signed ${s.signedAt?.replace("T", " ").slice(0, 16)} UTC` : s.signState === "declined" ? "declined" : "not signed yet";
    layout.paragraph([{ text: s.name, bold: true }, { text: `${s.title ? `, ${s.title}` : ""} for ${s.party} — ${decided}` }]);
  }
  if (options.attachments && options.attachments.length > 0) {
    layout.heading("Attachments");
    layout.list(options.attachments.map((a) => [{ text: a.name }, ...(a.sha256 ? [{ text: ` (SHA-256 ${a.sha256})` }] : [])]), 9);
  }
}

/** The contract's PDF bytes. */
export async function renderContractPdf(document: TDocument, options: TContractPdfOptions): Promise<Uint8Array> {
  const layout = await PdfLayout.create({
    footer: `${document.title} · contract ${options.contractId}${options.draft ? ` · ${DRAFT_MARK}` : ""}`,
    ...(options.draft ? { banner: DRAFT_MARK } : {}),
  });
  const when = options.creationDate ?? new Date();
  layout.doc.setTitle(document.title);
  layout.doc.setProducer("contracts-admin");
  layout.doc.setCreator("contracts-admin");
  layout.doc.setCreationDate(when);
  layout.doc.setModificationDate(when);
  await writeContract(layout, document, options);
  return layout.finish();
}
