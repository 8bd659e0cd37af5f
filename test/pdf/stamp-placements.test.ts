// Stamping boxes on an uploaded PDF (lib/pdf/stamp-placements.ts): shares of the page as shown become
// points in the page's user space whatever its MediaBox, CropBox and /Rotate; the text is fitted to
// the box; and pdftotext finds it, in DejaVu, inside the box on its page.
import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";

import { embedFonts, type TFonts } from "@/lib/pdf/layout";
import { boxInPoints, fitText, MIN_STAMP_SIZE, pageFrame, stampPlacements, toUserSpace, type TStamp } from "@/lib/pdf/stamp-placements";
import { makeUploadedPdf, pageTexts, pdfTool, pdfWords, type TUploadPage } from "@/test/helpers/sealed-pdf";

const PAGES: TUploadPage[] = [
  { lines: ["An A4 page"] },
  { size: [612, 792], mediaBox: [100, 200, 612, 792], cropBox: [150, 260, 500, 700], lines: ["A page whose boxes are not at the origin"] },
  { rotate: 90, lines: ["Turned a quarter clockwise"] },
  { rotate: 180, lines: ["Upside down"] },
  { rotate: 270, lines: ["Turned three quarters"] },
];

let doc: PDFDocument;
let fonts: TFonts;
beforeAll(async () => {
  doc = await PDFDocument.load(await makeUploadedPdf(PAGES));
  fonts = await embedFonts(doc);
});

describe("where a box lies", () => {
  it("maps the page's corners as shown to the visible area's corners in user space, for every turn", () => {
    const [a4, offset, quarter, half, threeQuarters] = doc.getPages().map(pageFrame);
    expect(a4).toMatchObject({ x0: 0, y0: 0, rotation: 0, shownWidth: 595.28, shownHeight: 841.89 });
    // The CropBox within the MediaBox: 150..650 × 260..960 (the MediaBox ends at 712 × 992).
    expect(offset).toMatchObject({ x0: 150, y0: 260, width: 500, height: 700, rotation: 0, shownWidth: 500, shownHeight: 700 });
    expect(toUserSpace(offset!, 0, 0)).toEqual({ x: 150, y: 960 });
    expect(toUserSpace(offset!, 500, 700)).toEqual({ x: 650, y: 260 });
    // Turned a quarter clockwise, the shown page is landscape; its top left corner is the unturned bottom left.
    expect(quarter).toMatchObject({ rotation: 90, shownWidth: 841.89, shownHeight: 595.28 });
    expect(toUserSpace(quarter!, 0, 0)).toEqual({ x: 0, y: 0 });
    expect(toUserSpace(quarter!, 841.89, 0)).toEqual({ x: 0, y: 841.89 });
    expect(toUserSpace(half!, 0, 0)).toEqual({ x: 595.28, y: 0 });
    expect(toUserSpace(threeQuarters!, 0, 0)).toEqual({ x: 595.28, y: 841.89 });
    expect(toUserSpace(threeQuarters!, 0, 595.28)).toEqual({ x: 0, y: 841.89 });
    expect(boxInPoints(quarter!, { x: 0.5, y: 0.5, width: 0.8, height: 0.1 })).toEqual({ x: 420.945, y: 297.64, width: 420.945, height: 59.528 });
  });

  it("a CropBox reaching past the MediaBox shows only the MediaBox's part; a /Rotate of -90 is 270", async () => {
    const other = await PDFDocument.load(await makeUploadedPdf([{ mediaBox: [0, 0, 400, 400], cropBox: [-50, 100, 600, 600], rotate: 0, lines: [] }]));
    other.getPage(0).setRotation({ type: "degrees", angle: -90 } as never);
    expect(pageFrame(other.getPage(0))).toMatchObject({ x0: 0, y0: 100, width: 400, height: 300, rotation: 270 });
  });
});

describe("fitting text to a box", () => {
  it("takes the largest size up to the cap at which the words fit, shrinking for a narrow box", () => {
    expect(fitText(fonts.regular, "Åsa Öberg", 300, 40, { maxSize: 12 })).toEqual({ size: 12, lines: ["Åsa Öberg"] });
    const narrow = fitText(fonts.regular, "Åsa Öberg", 40, 12, { maxSize: 12 });
    expect(narrow.lines).toEqual(["Åsa Öberg"]);
    expect(narrow.size).toBeLessThan(12);
    expect(fonts.regular.widthOfTextAtSize("Åsa Öberg", narrow.size)).toBeLessThanOrEqual(40);
  });

  it("wraps in whole words where the box is tall enough, never below the smallest size", () => {
    const fit = fitText(fonts.regular, "Leverans till Göteborg hamn, kaj 4", 60, 60, { maxSize: 12 });
    expect(fit.lines.length).toBeGreaterThan(1);
    expect(fit.lines.join(" ")).toBe("Leverans till Göteborg hamn, kaj 4");
    expect(fit.size).toBeGreaterThanOrEqual(MIN_STAMP_SIZE);
    for (const line of fit.lines) expect(fonts.regular.widthOfTextAtSize(line, fit.size)).toBeLessThanOrEqual(60);
    expect(fit.lines.length * fit.size * 1.2).toBeLessThanOrEqual(60);
  });

  it("cuts what does not fit at the smallest size with an ellipsis", () => {
    const fit = fitText(fonts.regular, "A value far too long for its small box ".repeat(5), 80, 7, { maxSize: 12 });
    expect(fit.size).toBe(MIN_STAMP_SIZE);
    expect(fit.lines).toHaveLength(1);
    expect(fit.lines[0]!.endsWith("…")).toBe(true);
    expect(fonts.regular.widthOfTextAtSize(fit.lines[0]!, fit.size)).toBeLessThanOrEqual(80);
  });
});

describe("stamped pages", () => {
  let bytes: Uint8Array;
  const stamps: TStamp[] = PAGES.flatMap((_, i) => [
    { page: i + 1, x: 0.1, y: 0.1, width: 0.4, height: 0.08, kind: "signature", text: "Åsa Öberg", caption: "Signed electronically 2026-11-27 09:05 UTC" },
    { page: i + 1, x: 0.55, y: 0.8, width: 0.35, height: 0.03, kind: "name", text: `Bjørn Ærø ${i + 1}` },
  ]);

  beforeAll(async () => {
    const stamped = await PDFDocument.load(await makeUploadedPdf(PAGES));
    stampPlacements(stamped, await embedFonts(stamped), stamps);
    bytes = await stamped.save();
  });

  it("keeps the page's own text and adds the stamps as text pdftotext reads, Nordic letters and all", () => {
    const texts = pageTexts(bytes);
    PAGES.forEach((spec, i) => {
      expect(texts[i + 1]).toContain(spec.lines[0]);
      expect(texts[i + 1]).toContain("Åsa Öberg");
      expect(texts[i + 1]).toContain(`Bjørn Ærø ${i + 1}`);
      expect(texts[i + 1]).toContain("Signed electronically 2026-11-27 09:05 UTC");
    });
    expect(pdfTool(bytes, "pdffonts", ["FILE"])).toContain("DejaVuSans");
    expect(pdfTool(bytes, "qpdf", ["--check", "FILE"])).toContain("No syntax or stream encoding errors found");
  });

  it("draws each stamp inside its box on its page, as a reader shows the page (offset boxes and turned pages included)", () => {
    const words = pdfWords(bytes);
    const frames = doc.getPages().map(pageFrame);
    for (const stamp of stamps) {
      const box = boxInPoints(frames[stamp.page - 1]!, stamp);
      const mine = words.filter((w) => w.page === stamp.page && [...stamp.text.split(" "), ...(stamp.caption?.split(" ") ?? [])].includes(w.text));
      expect(mine.length, `page ${stamp.page} ${stamp.kind}`).toBeGreaterThanOrEqual(stamp.text.split(" ").length);
      for (const w of mine) {
        const where = `${w.text} on page ${w.page} at ${w.left},${w.top} ${w.width}×${w.height}, box ${JSON.stringify(box)}`;
        expect(w.left, where).toBeGreaterThanOrEqual(box.x - 0.5);
        expect(w.top, where).toBeGreaterThanOrEqual(box.y - 0.5);
        expect(w.left + w.width, where).toBeLessThanOrEqual(box.x + box.width + 0.5);
        expect(w.top + w.height, where).toBeLessThanOrEqual(box.y + box.height + 0.5);
      }
    }
  });

  it("the signature mark: the name large, the caption small below it", () => {
    const words = pdfWords(bytes).filter((w) => w.page === 1);
    const name = words.find((w) => w.text === "Öberg")!;
    const caption = words.find((w) => w.text === "electronically")!;
    expect(name.height).toBeGreaterThan(3 * caption.height);
    expect(caption.top).toBeGreaterThan(name.top + name.height - 1);
  });

  it("refuses a box on a page the document does not have", async () => {
    const other = await PDFDocument.load(await makeUploadedPdf([{ lines: ["One page"] }]));
    expect(() => stampPlacements(other, fonts, [{ page: 2, x: 0, y: 0, width: 0.5, height: 0.1, kind: "name", text: "X" }])).toThrow(/page 2.*has 1/);
  });
});
