// A small flowing-text layout on pdf-lib: headings, wrapped paragraphs of styled runs, lists, key
// and value rows, page breaks (a heading kept with what follows it, a block kept together on one
// page when asked), a banner and a footer on every page. The contract PDF and the
// completion certificate both write with it. Fonts are DejaVu Sans, shipped in assets/fonts (they
// cover the Nordic letters), embedded as subsets.
import { readFile } from "node:fs/promises";
import path from "node:path";
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, rgb, type PDFFont, type PDFPage, type RGB } from "pdf-lib";

export const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const FOOTER_SIZE = 8;

export interface TFonts {
  regular: PDFFont;
  bold: PDFFont;
}

let fontBytes: Promise<{ regular: Uint8Array; bold: Uint8Array }> | undefined;

/** The font files, read once per process. */
function loadFontBytes() {
  fontBytes ??= (async () => {
    const dir = path.join(process.cwd(), "assets", "fonts");
    const [regular, bold] = await Promise.all([readFile(path.join(dir, "DejaVuSans.ttf")), readFile(path.join(dir, "DejaVuSans-Bold.ttf"))]);
    return { regular, bold };
  })().catch((error: unknown) => {
    fontBytes = undefined;
    throw error;
  });
  return fontBytes;
}

/** Embeds DejaVu Sans (regular and bold, as subsets) in `doc`. */
export async function embedFonts(doc: PDFDocument): Promise<TFonts> {
  doc.registerFontkit(fontkit);
  const bytes = await loadFontBytes();
  const [regular, bold] = await Promise.all([doc.embedFont(bytes.regular, { subset: true }), doc.embedFont(bytes.bold, { subset: true })]);
  return { regular, bold };
}

const charsets = new WeakMap<PDFFont, Set<number>>();

/**
 * `text` as `font` can draw it: tabs and line breaks become spaces, control characters and glyphs
 * the font lacks a replacement mark ("?").
 */
export function drawableText(font: PDFFont, text: string): string {
  let set = charsets.get(font);
  if (!set) {
    set = new Set((font as unknown as { getCharacterSet(): number[] }).getCharacterSet());
    charsets.set(font, set);
  }
  let out = "";
  for (const ch of text.replace(/[\t\r\n]+/g, " ")) {
    const cp = ch.codePointAt(0)!;
    out += cp < 0x20 || !set.has(cp) ? "?" : ch;
  }
  return out;
}

/** A run of text with one style; a paragraph is a list of runs, wrapped together. */
export interface TRun {
  text: string;
  bold?: boolean;
  color?: RGB;
  /** Drawn over a light background (e.g. an empty data field). */
  highlight?: RGB;
}

export interface TLayoutOptions {
  /** Left of the footer on every page, e.g. the contract's name and id. */
  footer?: string;
  /** Printed at the top of every page, e.g. "Draft — not final". */
  banner?: string;
}

/** Label and value rows (`PdfLayout.rows`). */
export interface TRowsOptions {
  size?: number;
  /** The label column: points, or `"fit"`: as wide as the widest label needs. Default 150. */
  labelWidth?: number | "fit";
  /** Labels in bold (default) or regular type. */
  labelBold?: boolean;
  /** Space after the last row (default 4): 0 where more rows of the same list follow. */
  after?: number;
}

/** Room between a row's label and its value. */
const LABEL_GAP = 8;

export const GREY = rgb(0.4, 0.4, 0.4);
export const MISSING = rgb(0.7, 0.1, 0.1);
export const MISSING_BACKGROUND = rgb(1, 0.93, 0.85);

/**
 * Writes flowing content top to bottom, starting a page when the next line does not fit. Call
 * `finish()` last: it draws the banner and the footer ("Page n of m") on every page
 * this layout added.
 */
export class PdfLayout {
  readonly doc: PDFDocument;
  readonly fonts: TFonts;
  private readonly options: TLayoutOptions;
  private readonly pages: PDFPage[] = [];
  private page!: PDFPage;
  private y = 0;

  private constructor(doc: PDFDocument, fonts: TFonts, options: TLayoutOptions) {
    this.doc = doc;
    this.fonts = fonts;
    this.options = options;
    this.newPage();
  }

  /** A layout writing new pages at the end of `doc` (a fresh document when none is given). */
  static async create(options: TLayoutOptions = {}, doc?: PDFDocument, fonts?: TFonts): Promise<PdfLayout> {
    const target = doc ?? (await PDFDocument.create());
    return new PdfLayout(target, fonts ?? (await embedFonts(target)), options);
  }

  get pageCount(): number {
    return this.pages.length;
  }

  private get width() {
    return A4[0] - 2 * MARGIN;
  }

  private get top() {
    return A4[1] - MARGIN - (this.options.banner ? 18 : 0);
  }

  newPage(): void {
    this.page = this.doc.addPage(A4);
    this.pages.push(this.page);
    this.y = this.top;
  }

  /** Starts a new page unless `height` still fits on this one. */
  private ensure(height: number) {
    if (this.y - height < MARGIN + FOOTER_SIZE + 8) this.newPage();
  }

  /**
   * Keeps what comes next together: starts a new page unless `height` (measured with
   * `headingHeight`, `paragraphHeight` and `rowsHeight`) still fits on this one. For a heading with
   * its section and a closing block, so that no page holds only the tail of a document. Taller than
   * a page, it starts a fresh page and breaks where it must.
   */
  keepTogether(height: number): void {
    if (this.y < this.top) this.ensure(height);
  }

  /** The height `heading(text, level)` takes. */
  headingHeight(level: 1 | 2 = 1): number {
    return 8 + (level === 1 ? 13 : 11) * 1.4 + 4;
  }

  /** The height `paragraph(runs, options)` takes. */
  paragraphHeight(runs: readonly TRun[], { size = 10, after = 6, indent = 0 }: { size?: number; after?: number; indent?: number } = {}): number {
    return this.wrap(runs, size, this.width - indent).length * size * 1.4 + after;
  }

  /** The height `rows(rows, options)` takes. */
  rowsHeight(rows: readonly [string, string][], options: TRowsOptions = {}): number {
    const { size = 9, after = 4 } = options;
    const labelWidth = this.labelWidthOf(rows, options);
    let height = after;
    for (const [, value] of rows) height += size * 1.4 * Math.max(1, this.wrap([{ text: value }], size, this.width - labelWidth).length) + 2;
    return height;
  }

  /** Vertical space (ignored at the top of a page). */
  space(height: number): void {
    if (this.y < this.top) this.y -= height;
  }

  title(text: string): void {
    this.paragraph([{ text, bold: true }], { size: 18, after: 10 });
  }

  /** A heading, kept on a page with `keepWith` points of what follows it (by default two lines). */
  heading(text: string, level: 1 | 2 = 1, { keepWith = 2 * 10 * 1.4 }: { keepWith?: number } = {}): void {
    const size = level === 1 ? 13 : 11;
    this.ensure(size * 1.4 + keepWith + 8);
    this.space(8);
    this.paragraph([{ text, bold: true }], { size, after: 4 });
  }

  /** Runs wrapped to the width; `indent` shifts every line, `bullet` is drawn before the first. */
  paragraph(runs: readonly TRun[], { size = 10, after = 6, indent = 0, bullet }: { size?: number; after?: number; indent?: number; bullet?: string } = {}): void {
    const lineHeight = size * 1.4;
    this.wrap(runs, size, this.width - indent).forEach((line, index) => {
      this.ensure(lineHeight);
      this.y -= lineHeight;
      let x = MARGIN + indent;
      if (bullet && index === 0) this.page.drawText(bullet, { x: x - 10, y: this.y, size, font: this.fonts.regular });
      for (const piece of line) {
        const font = piece.bold ? this.fonts.bold : this.fonts.regular;
        const w = font.widthOfTextAtSize(piece.text, size);
        if (piece.highlight) this.page.drawRectangle({ x, y: this.y - size * 0.25, width: w, height: size * 1.2, color: piece.highlight });
        this.page.drawText(piece.text, { x, y: this.y, size, font, color: piece.color ?? rgb(0, 0, 0) });
        x += w;
      }
    });
    this.y -= after;
  }

  /** One line per item, each with a bullet. */
  list(items: readonly (readonly TRun[])[], size = 10): void {
    for (const item of items) this.paragraph(item, { size, after: 2, indent: 14, bullet: "•" });
    this.y -= 4;
  }

  /** Label and value rows, the value wrapped beside its label. */
  rows(rows: readonly [string, string][], options: TRowsOptions = {}): void {
    const { size = 9, labelBold = true, after = 4 } = options;
    const labelWidth = this.labelWidthOf(rows, options);
    const labelFont = labelBold ? this.fonts.bold : this.fonts.regular;
    const lineHeight = size * 1.4;
    for (const [label, value] of rows) {
      const lines = this.wrap([{ text: value }], size, this.width - labelWidth);
      this.ensure(lineHeight * Math.max(1, lines.length));
      this.page.drawText(this.fit(label, size, labelWidth - LABEL_GAP, labelFont), { x: MARGIN, y: this.y - lineHeight, size, font: labelFont });
      for (const line of lines.length ? lines : [[]]) {
        this.y -= lineHeight;
        let x = MARGIN + labelWidth;
        for (const piece of line) {
          this.page.drawText(piece.text, { x, y: this.y, size, font: this.fonts.regular });
          x += this.fonts.regular.widthOfTextAtSize(piece.text, size);
        }
      }
      this.y -= 2;
    }
    this.y -= after;
  }

  /** Draws banner and footer on this layout's pages; then the document's bytes. */
  async finish({ save = true }: { save?: boolean } = {}): Promise<Uint8Array> {
    const total = this.pages.length;
    this.pages.forEach((page, index) => {
      const { regular, bold } = this.fonts;
      if (this.options.banner) {
        page.drawText(this.options.banner, { x: MARGIN, y: A4[1] - MARGIN + 4, size: 10, font: bold, color: MISSING });
      }
      const right = `Page ${index + 1} of ${total}`;
      const rw = regular.widthOfTextAtSize(right, FOOTER_SIZE);
      page.drawText(right, { x: A4[0] - MARGIN - rw, y: MARGIN - 20, size: FOOTER_SIZE, font: regular, color: GREY });
      if (this.options.footer) page.drawText(this.fit(this.options.footer, FOOTER_SIZE, this.width - rw - 12), { x: MARGIN, y: MARGIN - 20, size: FOOTER_SIZE, font: regular, color: GREY });
    });
    // Saving yields to the event loop every 50 objects, so a long document does not hold up others' requests.
    return save ? this.doc.save({ objectsPerTick: 50 }) : new Uint8Array();
  }

  /** Lines of runs that fit `width`; words longer than a line are cut. */
  private wrap(runs: readonly TRun[], size: number, width: number): TRun[][] {
    const lines: TRun[][] = [];
    let line: TRun[] = [];
    let lineWidth = 0;
    const widthOf = (run: TRun, text: string) => (run.bold ? this.fonts.bold : this.fonts.regular).widthOfTextAtSize(text, size);
    const push = (run: TRun, text: string, w: number) => {
      const last = line.at(-1);
      if (last && last.bold === run.bold && last.color === run.color && last.highlight === run.highlight) last.text += text;
      else line.push({ ...run, text });
      lineWidth += w;
    };
    const breakLine = () => {
      const last = line.at(-1);
      if (last) last.text = last.text.trimEnd();
      lines.push(line);
      line = [];
      lineWidth = 0;
    };
    for (const run of runs) {
      for (const word of this.clean(run.text).split(/(?<=\s)/)) {
        if (word === "") continue;
        let w = widthOf(run, word);
        if (lineWidth + widthOf(run, word.trimEnd()) > width && line.length > 0) {
          breakLine();
          if (/^\s+$/.test(word)) continue;
        }
        let rest = word;
        while (w > width) {
          let n = rest.length - 1;
          while (n > 1 && widthOf(run, rest.slice(0, n)) > width - lineWidth) n--;
          push(run, rest.slice(0, n), widthOf(run, rest.slice(0, n)));
          breakLine();
          rest = rest.slice(n);
          w = widthOf(run, rest);
        }
        push(run, rest, w);
      }
    }
    if (line.length > 0) breakLine();
    return lines;
  }

  /** Characters the font cannot draw (controls; glyphs DejaVu lacks) become a replacement mark. */
  private clean(text: string): string {
    return drawableText(this.fonts.regular, text);
  }

  /** The label column's width: as given, or (`"fit"`) the widest label and a gap, at most half the width. */
  labelWidthOf(rows: readonly [string, string][], { size = 9, labelWidth = 150, labelBold = true }: TRowsOptions): number {
    if (labelWidth !== "fit") return labelWidth;
    const font = labelBold ? this.fonts.bold : this.fonts.regular;
    const widest = Math.max(0, ...rows.map(([label]) => font.widthOfTextAtSize(this.clean(label), size)));
    return Math.min(this.width / 2, Math.ceil(widest) + LABEL_GAP + 4);
  }

  /** `text` cut with an ellipsis to `width`, measured in the font it is drawn with. */
  private fit(text: string, size: number, width: number, font: PDFFont = this.fonts.regular): string {
    let t = this.clean(text);
    if (font.widthOfTextAtSize(t, size) <= width) return t;
    while (t.length > 1 && font.widthOfTextAtSize(`${t}…`, size) > width) t = t.slice(0, -1);
    return `${t}…`;
  }
}
