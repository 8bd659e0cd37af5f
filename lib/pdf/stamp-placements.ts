// Stamping an uploaded PDF (docs/documents.md "Uploaded PDF"): each placed box gets its text drawn
// into it on the page it lies on — a signature mark, a signer's name, the date they signed, a data
// field's value. A box is given as shares of the page (0..1) from the top left corner of the page as
// a reader shows it: the visible area (the CropBox within the MediaBox, whose origin need not be 0,0)
// turned by the page's /Rotate. The text is real text in the embedded DejaVu Sans (a reader can
// search and copy it; the Nordic letters work), shrunk to fit the box, wrapped, and cut with an
// ellipsis only when even the smallest size does not fit.
import { degrees, rgb, type PDFDocument, type PDFFont, type PDFPage, type RGB } from "pdf-lib";

import { pageFrameOf, type TPageFrame, type TRect } from "@/lib/domain/page-frame";
import type { TBox, TPlacementKind } from "@/lib/domain/placement";
import { drawableText, GREY, type TFonts } from "./layout";

export type TStampKind = TPlacementKind;

/** A box (lib/domain/placement.ts: page from 1, shares of the page as shown from its top left) and what it shows. */
export interface TStamp extends TBox {
  kind: TStampKind;
  /** The signer's typed name (signature), their name, the date signed, or the field's value. */
  text: string;
  /** Under a signature's line, e.g. "Signed electronically 2026-11-28 10:15 UTC". */
  caption?: string;
}

/** The smallest size text is shrunk to; below it a value wraps, then is cut with an ellipsis. */
export const MIN_STAMP_SIZE = 5;
/** The largest size of a name, date or value (a tall box does not make it a headline). */
const MAX_TEXT_SIZE = 12;
/** The largest size of the name in a signature mark. */
const MAX_SIGNATURE_SIZE = 32;
const MAX_CAPTION_SIZE = 7;
const MIN_CAPTION_SIZE = 4;
const LINE_GAP = 1.2;
const INK = rgb(0.07, 0.16, 0.47);
const RULE = rgb(0.35, 0.35, 0.35);

/** The page as a reader shows it (lib/domain/page-frame.ts), read through pdf-lib as the stamps are drawn. */
export function pageFrame(page: PDFPage): TPageFrame {
  return pageFrameOf({ media: page.getMediaBox(), crop: page.getCropBox(), angle: page.getRotation().angle });
}

/** A point given in points as shown, from the top left corner (y down), in the page's user space. */
export function toUserSpace(frame: TPageFrame, dx: number, dy: number): { x: number; y: number } {
  const { x0, y0, width: w, height: h } = frame;
  switch (frame.rotation) {
    case 0:
      return { x: x0 + dx, y: y0 + h - dy };
    case 90:
      return { x: x0 + dy, y: y0 + dx };
    case 180:
      return { x: x0 + w - dx, y: y0 + dy };
    case 270:
      return { x: x0 + w - dy, y: y0 + h - dx };
  }
}

const share = (v: number) => Math.min(1, Math.max(0, Number.isFinite(v) ? v : 0));

/** The box in points as shown, from the top left corner. */
export function boxInPoints(frame: TPageFrame, box: Pick<TStamp, "x" | "y" | "width" | "height">): TRect {
  const x = share(box.x);
  const y = share(box.y);
  return { x: x * frame.shownWidth, y: y * frame.shownHeight, width: Math.min(share(box.width), 1 - x) * frame.shownWidth, height: Math.min(share(box.height), 1 - y) * frame.shownHeight };
}

export interface TFittedText {
  size: number;
  lines: string[];
}

/**
 * The largest size (≤ `maxSize`, ≥ `minSize`) at which `text` fits `width` × `height` in whole
 * words, wrapped; when none does, the smallest size, words broken where they must be, and what
 * does not fit cut with an ellipsis.
 */
export function fitText(font: PDFFont, text: string, width: number, height: number, { maxSize, minSize = MIN_STAMP_SIZE }: { maxSize: number; minSize?: number }): TFittedText {
  const clean = drawableText(font, text).replace(/ +/g, " ").trim();
  if (clean === "" || width <= 0) return { size: minSize, lines: [] };
  const words = clean.split(" ");
  const unit = new Map<string, number>();
  const unitWidth = (s: string) => {
    let w = unit.get(s);
    if (w === undefined) {
      w = font.widthOfTextAtSize(s, 1);
      unit.set(s, w);
    }
    return w;
  };
  const space = unitWidth(" ");
  const start = Math.max(minSize, Math.min(maxSize, height / LINE_GAP));
  const sizes: number[] = [];
  for (let size = start; size > minSize; size -= 0.5) sizes.push(size);
  sizes.push(minSize);
  for (const size of sizes) {
    const lines = wrapWords(words, unitWidth, space * size, size, width);
    if (lines && lines.length * size * LINE_GAP <= height + 1e-6) return { size, lines };
  }
  // Nothing fits in whole words: the smallest size, long words broken, the rest cut.
  const size = minSize;
  const maxLines = Math.max(1, Math.floor((height + 1e-6) / (size * LINE_GAP)));
  const lines = breakWords(words, unitWidth, space, width / size);
  if (lines.length <= maxLines) return { size, lines };
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = ellipsize(`${kept[maxLines - 1]} ${lines[maxLines]}`, unitWidth, width / size);
  return { size, lines: kept };
}

/** Greedy wrap in whole words; null when a word alone is wider than a line. */
function wrapWords(words: readonly string[], unitWidth: (s: string) => number, spaceWidth: number, size: number, width: number): string[] | null {
  const lines: string[] = [];
  let line = "";
  let lineWidth = 0;
  for (const word of words) {
    const w = unitWidth(word) * size;
    if (w > width + 1e-6) return null;
    if (line !== "" && lineWidth + spaceWidth + w <= width + 1e-6) {
      line += ` ${word}`;
      lineWidth += spaceWidth + w;
    } else {
      if (line !== "") lines.push(line);
      line = word;
      lineWidth = w;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** Greedy wrap (widths at size 1) that breaks a word wider than a line between its characters. */
function breakWords(words: readonly string[], unitWidth: (s: string) => number, space: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  let lineWidth = 0;
  for (const word of words) {
    const w = unitWidth(word);
    if (line !== "" && lineWidth + space + w <= width + 1e-6) {
      line += ` ${word}`;
      lineWidth += space + w;
      continue;
    }
    if (line !== "") lines.push(line);
    line = "";
    lineWidth = 0;
    for (const ch of w <= width + 1e-6 ? [word] : [...word]) {
      const cw = unitWidth(ch);
      if (line !== "" && lineWidth + cw > width + 1e-6) {
        lines.push(line);
        line = "";
        lineWidth = 0;
      }
      line += ch;
      lineWidth += cw;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** `text` cut to `width` (at size 1), ending in an ellipsis. */
function ellipsize(text: string, unitWidth: (s: string) => number, width: number): string {
  const room = width - unitWidth("…");
  let out = "";
  let w = 0;
  for (const ch of text) {
    const cw = unitWidth(ch);
    if (w + cw > room + 1e-6) break;
    out += ch;
    w += cw;
  }
  return `${out.trimEnd()}…`;
}

/** "Signed electronically 2026-11-28 10:15 UTC": a signature mark's caption. */
export function signedCaption(at: Date): string {
  return `Signed electronically ${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 16)} UTC`;
}

/** The date signed as a date box shows it: YYYY-MM-DD in UTC. */
export function dateSigned(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * The font's ascent per point of size. (pdf-lib's `heightAtSize(size, { descender: false })` takes
 * the descent off in the font's own units, not per 1000: too little for DejaVu.)
 */
function ascentOf(font: PDFFont): number {
  const metrics = (font as unknown as { embedder?: { font?: { ascent?: number; unitsPerEm?: number } } }).embedder?.font;
  if (metrics?.ascent && metrics.unitsPerEm) return metrics.ascent / metrics.unitsPerEm;
  return font.heightAtSize(1) * 0.8;
}

/** Draws text and lines on one page in points as shown, from its top left corner. */
class ShownPage {
  constructor(
    private readonly page: PDFPage,
    readonly frame: TPageFrame,
  ) {}

  /** Lines of `size` from `top` (as shown), the first baseline an ascent below it. */
  text(lines: readonly string[], left: number, top: number, size: number, font: PDFFont, color: RGB): void {
    const ascent = ascentOf(font) * size;
    lines.forEach((line, i) => {
      const at = toUserSpace(this.frame, left, top + ascent + i * size * LINE_GAP);
      this.page.drawText(line, { x: at.x, y: at.y, size, font, color, rotate: degrees(this.frame.rotation) });
    });
  }

  line(left: number, right: number, y: number, thickness: number, color: RGB): void {
    this.page.drawLine({ start: toUserSpace(this.frame, left, y), end: toUserSpace(this.frame, right, y), thickness, color });
  }
}

/** A name, date or value: as large as fits (up to 12 pt), centred on the box's height, from its left. */
function drawText(shown: ShownPage, box: TRect, text: string, font: PDFFont): void {
  const fit = fitText(font, text, box.width, box.height, { maxSize: MAX_TEXT_SIZE });
  const blockHeight = fit.lines.length * fit.size * LINE_GAP;
  shown.text(fit.lines, box.x, box.y + Math.max(0, (box.height - blockHeight) / 2), fit.size, font, rgb(0, 0, 0));
}

/**
 * The signature mark: the typed name as large as fits, on a thin line, and under the line a small
 * caption with when it was signed.
 */
function drawSignature(shown: ShownPage, box: TRect, text: string, caption: string | undefined, fonts: TFonts): void {
  const captionMax = Math.min(MAX_CAPTION_SIZE, Math.max(MIN_CAPTION_SIZE, box.height * 0.2));
  const captionFit = caption ? fitText(fonts.regular, caption, box.width, captionMax * LINE_GAP * 2, { maxSize: captionMax, minSize: MIN_CAPTION_SIZE }) : { size: 0, lines: [] };
  const captionHeight = captionFit.lines.length * captionFit.size * LINE_GAP;
  const gap = Math.max(1.5, Math.min(4, box.height * 0.06));
  const lineY = box.y + box.height - captionHeight - gap;
  const nameHeight = Math.max(0, lineY - box.y - gap / 2);
  const nameFit = fitText(fonts.regular, text, box.width, nameHeight, { maxSize: MAX_SIGNATURE_SIZE });
  const blockHeight = nameFit.lines.length * nameFit.size * LINE_GAP;
  // The name sits on the line, as a hand's signature would.
  shown.text(nameFit.lines, box.x, box.y + Math.max(0, nameHeight - blockHeight), nameFit.size, fonts.regular, INK);
  shown.line(box.x, box.x + box.width, lineY, 0.6, RULE);
  shown.text(captionFit.lines, box.x, lineY + gap, captionFit.size, fonts.regular, GREY);
}

/**
 * Draws every stamp into its box on its page of `doc` (pages from 1). `fonts` must be embedded in
 * `doc` (lib/pdf/layout.ts embedFonts). A stamp on a page the document does not have is an error.
 */
export function stampPlacements(doc: PDFDocument, fonts: TFonts, stamps: readonly TStamp[]): void {
  const pages = doc.getPages();
  const shown = new Map<number, ShownPage>();
  for (const stamp of stamps) {
    const page = pages[stamp.page - 1];
    if (!Number.isInteger(stamp.page) || !page) throw new Error(`a ${stamp.kind} box is on page ${stamp.page}, and the document has ${pages.length}`);
    let target = shown.get(stamp.page);
    if (!target) {
      target = new ShownPage(page, pageFrame(page));
      shown.set(stamp.page, target);
    }
    const outer = boxInPoints(target.frame, stamp);
    // A little room inside the box's edge, where the box is large enough to spare it.
    const padX = Math.min(2, outer.width * 0.04);
    const padY = Math.min(2, outer.height * 0.06);
    const box = { x: outer.x + padX, y: outer.y + padY, width: outer.width - 2 * padX, height: outer.height - 2 * padY };
    if (stamp.kind === "signature") drawSignature(target, box, stamp.text, stamp.caption, fonts);
    else drawText(target, box, stamp.text, fonts.regular);
  }
}
