// Whether a PDF uploaded as the contract's document may become it, from what was found in it
// (lib/pdf/inspect-uploaded-pdf.ts finds it, in a bounded worker): the first problem, as one plain
// sentence for the person who uploaded it, or null. Pure.
//
// Active content and signatures are refused, never removed: the document is kept as pdf-lib reads it
// (written out once, one copy of each object) and its SHA-256 is what the completion certificate
// names (docs/documents.md).
import {
  MAX_SEALED_PDF_BYTES,
  MAX_UPLOADED_PDF_BYTES,
  MAX_UPLOADED_PDF_PAGE_SIDE,
  MAX_UPLOADED_PDF_PAGES,
  MIN_UPLOADED_PDF_PAGE_SIDE,
  SEALED_PDF_CERTIFICATE_ROOM,
} from "./file-content";
import { isQuarterTurn, pageFrameOf, type TPageBoxes } from "./page-frame";

/** Content that acts when the PDF is opened, or that it carries beside its pages. */
export type TPdfActiveContent = "javascript" | "launch" | "outside_actions" | "media" | "hidden_content" | "embedded_files" | "xfa";

/** What the worker read in a PDF. */
export type TUploadedPdfRead =
  /** Password-protected or encrypted (pdf-lib refuses it, or its trailer has /Encrypt). */
  | { outcome: "encrypted" }
  /** Damaged: pdf-lib cannot parse it, or its page tree or a page's size is missing. */
  | { outcome: "broken" }
  /** Past the worker's bounds: objects, inflated bytes, steps of a walk, heap or time. */
  | { outcome: "too_complex" }
  | {
      outcome: "read";
      /** The trailer has /Encrypt. */
      encrypted: boolean;
      /** A filled signature field, a signature dictionary (/ByteRange), or /Perms (DocMDP, UR3). */
      signed: boolean;
      activeContent: TPdfActiveContent[];
      pages: number;
      /** Each page's boxes and turn (lib/domain/page-frame.ts); empty when pages is over the limit. */
      pageBoxes: TPageBoxes[];
      /** Names of fonts used but neither embedded nor among the standard 14 (the worker lists at most 20). */
      unembeddedFonts: string[];
      /** The document as it is kept: the PDF as pdf-lib read it, written out once (one copy of each object); absent when pages is over the limit. */
      document?: Uint8Array;
      /** What sealing does (stamps, a page, the signature's placeholder, written out) worked on it. */
      sealable?: boolean;
      /** The size it was then: the sealed copy's but for the certificate's text. */
      sealedBytes?: number;
    };

export interface TUploadedPdfReport {
  bytes: number;
  /** A PDF by its content (sniffAttachmentType). */
  isPdf: boolean;
  /** Absent when the file was refused before it was parsed (too large, or not a PDF). */
  read?: TUploadedPdfRead;
}

const ACTIVE_CONTENT_WORDS: Record<TPdfActiveContent, string> = {
  javascript: "JavaScript",
  launch: "an action that launches a program",
  outside_actions: "an action that opens another file or sends its form's data (or a link not to a web page or an e-mail address)",
  media: "sound, video or 3D content",
  hidden_content: "content that shows only in print or only on screen, in another layer or on a click (hidden layers or annotations)",
  embedded_files: "embedded files",
  xfa: "an XFA form",
};

/**
 * The sentence that refuses a PDF for what acts in it (lib/domain/attachment-pdf.ts words an
 * attachment's with it): each kind named, in one order, and how to be rid of them.
 */
export function activeContentProblem(kinds: readonly TPdfActiveContent[], { carrier, verb }: { carrier: string; verb: "upload" | "attach" }): string {
  const fix = kinds.includes("xfa") ? "flatten the form or print it to PDF again" : "print it to PDF again";
  const named = (Object.keys(ACTIVE_CONTENT_WORDS) as TPdfActiveContent[]).filter((kind) => kinds.includes(kind));
  return `The PDF contains ${inList(named.map((kind) => ACTIVE_CONTENT_WORDS[kind]))}, which ${carrier} may not carry; ${fix} and ${verb} that.`;
}

const DAMAGED = "The PDF is damaged and cannot be read; save or print it to PDF again and upload that.";
const MB = 1024 * 1024;
const mb = (bytes: number) => (Math.ceil((bytes / MB) * 10) / 10).toFixed(1);
const inList = (words: string[]) => (words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`);
const cm = (points: number) => String(Math.round((points / 72) * 2.54 * 10) / 10);

/** The first reason the PDF may not become the contract's document, as one sentence; null when it may. */
export function uploadedPdfProblem(report: TUploadedPdfReport): string | null {
  if (report.bytes > MAX_UPLOADED_PDF_BYTES) {
    return `The file is ${mb(report.bytes)} MB; a contract's document may be at most ${MAX_UPLOADED_PDF_BYTES / MB} MB.`;
  }
  if (!report.isPdf) return "The file is not a PDF; upload the contract's document as a PDF.";
  const read = report.read;
  if (!read || read.outcome === "broken") return DAMAGED;
  const encrypted = "The PDF is password-protected; upload it without a password (save it again with no password or encryption).";
  if (read.outcome === "encrypted") return encrypted;
  if (read.outcome === "too_complex") {
    return "The PDF is too complex inside for the service to check; print it to PDF again and upload that.";
  }
  if (read.encrypted) return encrypted;
  if (read.signed) {
    return "The PDF already carries a digital signature, which adding the signatures' pages and the seal would break; upload the document before it was signed.";
  }
  if (read.activeContent.length > 0) return activeContentProblem(read.activeContent, { carrier: "a contract's document", verb: "upload" });
  if (read.pages < 1) return "The PDF has no pages; upload the document with its pages.";
  if (read.pages > MAX_UPLOADED_PDF_PAGES) {
    return `The PDF has ${read.pages} pages; a contract's document may have at most ${MAX_UPLOADED_PDF_PAGES}.`;
  }
  const turned = read.pageBoxes.findIndex(({ angle }) => !isQuarterTurn(angle));
  if (turned >= 0) {
    return `Page ${turned + 1} is turned by ${read.pageBoxes[turned]!.angle}°, which readers show differently; a page may be turned by a multiple of 90° only, so print it to PDF again and upload that.`;
  }
  const shown = read.pageBoxes.map((boxes) => pageFrameOf(boxes));
  const atFault = shown.findIndex(({ shownWidth: w, shownHeight: h }) => !(Math.min(w, h) >= MIN_UPLOADED_PDF_PAGE_SIDE && Math.max(w, h) <= MAX_UPLOADED_PDF_PAGE_SIDE));
  const size = shown[atFault];
  if (size) {
    return `Page ${atFault + 1} measures ${cm(size.shownWidth)} × ${cm(size.shownHeight)} cm; each side of a page must be between ${cm(MIN_UPLOADED_PDF_PAGE_SIDE)} and ${cm(MAX_UPLOADED_PDF_PAGE_SIDE)} cm, so export it again at a usual paper size such as A4 or Letter.`;
  }
  if (read.unembeddedFonts.length > 0) {
    const names = read.unembeddedFonts.slice(0, 3).join(", ") + (read.unembeddedFonts.length > 3 ? " and others" : "");
    return `The PDF uses fonts it does not carry (${names}); export it again with fonts embedded.`;
  }
  if (read.sealable === false) return DAMAGED;
  if ((read.sealedBytes ?? 0) > MAX_SEALED_PDF_BYTES - SEALED_PDF_CERTIFICATE_ROOM) {
    return `The PDF would take ${mb(read.sealedBytes!)} MB once prepared for sealing, more than a sealed copy may; export it again with smaller images and upload that.`;
  }
  return null;
}
