// The sealed copy's bytes: the contract as signed (lib/pdf/contract-pdf.ts, final) — or, when the
// contract's document is a PDF staff uploaded, that PDF's pages with each placed box stamped on them
// (lib/pdf/stamp-placements.ts) — then the completion certificate written on pages after it, then
// the seal over the whole file. The certificate is added before signing: anything added after would
// break the signature.
import { createHash } from "node:crypto";

import { PDFDocument } from "pdf-lib";

import type { TDocument } from "@/lib/domain/contract-document";
import { PLACEMENT_KIND_WORDS, type TBox } from "@/lib/domain/placement";
import { renderContractPdf } from "@/lib/pdf/contract-pdf";
import { embedFonts, PdfLayout, type TFonts, type TRun } from "@/lib/pdf/layout";
import { dateSigned, signedCaption, stampPlacements, type TStamp, type TStampKind } from "@/lib/pdf/stamp-placements";

import type { TChainVerdict } from "@/lib/services/audit/check-contract-chain";
import type { TSealIdentity } from "./seal-identity";
import { sealPdf } from "./sign-pdf";

export interface TSealParticipant {
  id: number;
  name: string;
  title: string;
  email: string;
  party: string;
  myParty: boolean;
  signatory: boolean;
  organizer: boolean;
  signState: string;
  signStateUpdatedAt: Date | null;
  signedName: string;
  signMethod: string;
  twoStepMethod: string;
  decidedIp: string;
  decidedUserAgent: string;
}

/** A box placed on a page of the uploaded PDF (shares of the page as shown, from its top left). */
export interface TSealPlacement extends TBox {
  kind: TStampKind;
  /** The signatory of a signature, name or date box. */
  participantId: number | null;
  /** The data field of a data-field box. */
  dataField: { name: string; value: string } | null;
}

/** The contract's document when it is a PDF staff uploaded: its bytes and digest as stored, and its boxes. */
export interface TSealUpload {
  name: string;
  /** SHA-256 (hex) of `bytes` as stored when uploaded; checked against them. */
  sha256: string;
  bytes: Uint8Array;
  placements: TSealPlacement[];
}

export interface TSealInput {
  contract: { id: number; name: string; workspaceId: number; workspaceName: string; completedAt: Date };
  /** The text as signed (lib/services/contracts/load-contract-document.ts); only its term when `upload` is given. */
  document: TDocument;
  /** The document is this uploaded PDF, not the text (null or absent: a text contract). */
  upload?: TSealUpload | null;
  participants: TSealParticipant[];
  attachments: { name: string; sha256: string | null }[];
  events: { createdAt: Date; action: string; actorName: string | null; via: string; chainSeq: number | null }[];
  chain: TChainVerdict;
  recipients: { participantId: number | null; name: string; email: string }[];
}

const utc = (d: Date | null) => (d ? `${d.toISOString().replace("T", " ").slice(0, 19)} UTC` : "—");

function roleOf(p: TSealParticipant): string {
  const roles = [p.signatory ? "signatory" : "receives a copy"];
  if (p.organizer) roles.push("organizer");
  return roles.join(", ");
}

function actorOf(e: TSealInput["events"][number]): string {
  if (e.actorName) return e.actorName;
  return e.via === "system" ? "the service" : e.via === "api_token" ? "an API token" : "—";
}

const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The contract PDF (final) and its SHA-256: what the certificate calls "the document". */
async function renderFinalDocument(input: TSealInput): Promise<{ bytes: Uint8Array; sha256: string }> {
  const bytes = await renderContractPdf(input.document, { contractId: input.contract.id, draft: false, attachments: input.attachments, creationDate: input.contract.completedAt });
  return { bytes, sha256: sha256Of(bytes) };
}


/** What each box shows (null: nothing to stamp: a box of no signature, an empty field), and the certificate's line for it. */
function stampOf(input: TSealInput, placement: TSealPlacement): { stamp: TStamp | null; whom: string } {
  const box = { page: placement.page, x: placement.x, y: placement.y, width: placement.width, height: placement.height, kind: placement.kind };
  if (placement.kind === "data_field") {
    const field = placement.dataField;
    const value = field?.value.trim() ?? "";
    return { stamp: value ? { ...box, text: value } : null, whom: field ? `${field.name}${value ? "" : " (empty)"}` : "—" };
  }
  // A delegate takes over the delegator's boxes when the signature is handed on (delegate-by-link.ts).
  const person = input.participants.find((p) => p.id === placement.participantId);
  const signer = person?.signState === "signed" && person.signStateUpdatedAt ? person : null;
  const whom = `${person?.name ?? "—"}${signer ? "" : " (not signed)"}`;
  if (!signer) return { stamp: null, whom };
  const at = signer.signStateUpdatedAt!;
  const text = placement.kind === "signature" ? signer.signedName || signer.name : placement.kind === "name" ? signer.name : dateSigned(at);
  return { stamp: { ...box, text, ...(placement.kind === "signature" ? { caption: signedCaption(at) } : {}) }, whom };
}

/** The document's pages in a PDF document, and what the certificate says of them. */
async function documentOf(
  input: TSealInput,
): Promise<{ doc: PDFDocument; fonts?: TFonts; sha256: string; pages: number; rows: [string, string][]; note: string; boxes: [string, string][] | null }> {
  const { upload } = input;
  if (!upload) {
    const final = await renderFinalDocument(input);
    const doc = await PDFDocument.load(final.bytes);
    return {
      doc,
      sha256: final.sha256,
      pages: doc.getPageCount(),
      rows: [],
      note: "The document SHA-256 is that of the contract PDF as completed (the pages before this certificate), the contract file this service serves for the signed contract.",
      boxes: null,
    };
  }
  // The original as uploaded: its digest must still be the one stored with it.
  const actual = sha256Of(upload.bytes);
  if (actual !== upload.sha256) throw new Error(`the uploaded PDF's bytes have SHA-256 ${actual}, not the ${upload.sha256} stored with it`);
  // Its own metadata kept (no pdf-lib producer); the modification date is the seal's.
  const doc = await PDFDocument.load(upload.bytes, { updateMetadata: false });
  const fonts = await embedFonts(doc);
  const placements = [...upload.placements].sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x);
  const stamped = placements.map((p) => ({ placement: p, ...stampOf(input, p) }));
  stampPlacements(doc, fonts, stamped.flatMap((s) => (s.stamp ? [s.stamp] : [])));
  return {
    doc,
    fonts,
    sha256: upload.sha256,
    pages: doc.getPageCount(),
    rows: [["Document", `the uploaded PDF, ${upload.name}`]],
    note: "The document SHA-256 is that of the PDF uploaded as the contract, as the service stored it (written out again when uploaded) before it was sent for signing. The pages before this certificate are its pages, with the boxes listed under Placed boxes stamped on them.",
    boxes: stamped.map(({ placement: p, whom }) => [
      `Page ${p.page}`,
      `${PLACEMENT_KIND_WORDS[p.kind]}: ${whom}`,
    ]),
  };
}

/** Document, certificate and seal, signed at `sealedAt`. */
export async function buildSealedPdf(input: TSealInput, identity: TSealIdentity, sealedAt: Date): Promise<Buffer> {
  const { contract } = input;
  const document = await documentOf(input);
  const { doc } = document;
  doc.setModificationDate(sealedAt);
  const layout = await PdfLayout.create({ footer: `Completion certificate · contract ${contract.id}` }, doc, document.fonts);
  layout.title("Completion certificate");
  layout.rows([
    ["Contract", `${contract.name} (id ${contract.id})`],
    ["Workspace", contract.workspaceName],
    ["Completed", utc(contract.completedAt)],
    ["Sealed", utc(sealedAt)],
    ["Document SHA-256", document.sha256],
    ...document.rows,
    ["Document pages", String(document.pages)],
  ]);
  layout.paragraph([{ text: document.note }], { size: 8 });

  // The duration settings the signatories agreed to (docs/lifecycle.md), as the document states them.
  if (input.document.term.length > 0) {
    layout.heading("Term");
    layout.rows(input.document.term.map((row) => [row.label, row.value] as [string, string]));
  }

  const attachments = input.attachments.map((a) => [a.name, `SHA-256 ${a.sha256 ?? "—"}`] as [string, string]);
  section(layout, "Attachments", attachments, "None.");
  if (document.boxes) section(layout, "Placed boxes", document.boxes, "None: no box was placed on the document.");

  layout.heading("Participants");
  for (const p of input.participants) {
    const rows: [string, string][] = [
      ["E-mail", p.email || "—"],
      ["Party", p.party],
      ["Role", roleOf(p)],
      ["Decision", p.signatory ? (p.signState === "undecided" ? "none" : `${p.signState} ${utc(p.signStateUpdatedAt)}`) : "—"],
      ...(p.signState === "signed" ? [["Name typed to sign", p.signedName || "—"] as [string, string]] : []),
      ["IP address", p.decidedIp || "—"],
      ["User agent", p.decidedUserAgent || "—"],
      ["Sign method", p.signMethod],
      ["Two-step method", p.twoStepMethod],
    ];
    // One participant's lines on one page, under their name.
    layout.keepTogether(layout.headingHeight(2) + layout.rowsHeight(rows));
    layout.heading(`${p.name}${p.title ? `, ${p.title}` : ""}`, 2);
    layout.rows(rows);
  }

  // The time in its own column, in regular type and as wide as the times need, then the event and
  // who caused it.
  const timeline = input.events.map((e) => [utc(e.createdAt), `${e.action} — ${actorOf(e)}`] as [string, string]);
  const timelineOptions = { labelWidth: layout.labelWidthOf(timeline, { labelWidth: "fit", labelBold: false }), labelBold: false };
  // The last lines of the timeline go with the closing block below.
  const [timelineHead, timelineTail] = [timeline.slice(0, -2), timeline.slice(-2)];
  layout.heading("Event timeline", 1, { keepWith: layout.rowsHeight(timeline.slice(0, 2), timelineOptions) });
  if (timeline.length === 0) layout.paragraph([{ text: "None." }]);
  if (timelineHead.length > 0) layout.rows(timelineHead, { ...timelineOptions, after: 0 });

  // The closing block (the chain, the seal and the note on checking it) stays together, and with the
  // timeline's last lines: the last page never holds only the certificate's tail.
  const chain: [string, string][] = [
    ["Events", String(input.chain.events)],
    ["Chain at sealing", input.chain.intact ? "intact" : `broken at event ${input.chain.brokenAt?.position}`],
    ["Last hash", input.chain.lastHash ?? "—"],
  ];
  const seal: [string, string][] = [
    ["Signed by", identity.subject],
    ["Certificate SHA-256", identity.fingerprint],
    ["Certificate", identity.selfSigned ? "self-signed by this deployment" : "from SEAL_P12"],
  ];
  const closing: TRun[] = [{ text: "This file is sealed with a PAdES signature over all of its bytes. Any change breaks it; upload the file to this service's /verify page to check it." }];
  const tailHeight = timelineTail.length > 0 ? layout.rowsHeight(timelineTail, timelineOptions) : 0;
  layout.keepTogether(tailHeight + 2 * layout.headingHeight() + layout.rowsHeight(chain) + layout.rowsHeight(seal) + layout.paragraphHeight(closing, { size: 8, after: 0 }));
  if (timelineTail.length > 0) layout.rows(timelineTail, timelineOptions);
  layout.heading("Audit chain");
  layout.rows(chain);
  layout.heading("Seal");
  layout.rows(seal);
  layout.paragraph(closing, { size: 8 });
  await layout.finish({ save: false });
  return sealPdf(doc, identity, { reason: `Completion of contract ${contract.id}`, location: contract.workspaceName, signingTime: sealedAt });
}

/** A heading and its rows (or a line saying there are none), the heading kept with the first rows. */
function section(layout: PdfLayout, heading: string, rows: [string, string][], none: string): void {
  layout.heading(heading, 1, { keepWith: rows.length ? layout.rowsHeight(rows.slice(0, 2)) : 14 });
  if (rows.length === 0) layout.paragraph([{ text: none }]);
  else layout.rows(rows);
}
