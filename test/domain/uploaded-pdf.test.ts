import { describe, expect, it } from "vitest";
import { MAX_SEALED_PDF_BYTES, MAX_UPLOADED_PDF_BYTES, SEALED_PDF_CERTIFICATE_ROOM } from "@/lib/domain/file-content";
import type { TPageBoxes } from "@/lib/domain/page-frame";
import { uploadedPdfProblem, type TUploadedPdfRead } from "@/lib/domain/uploaded-pdf";

/** A page of `width` × `height` points, its CropBox `crop` (default: the MediaBox), turned by `angle`. */
const sheet = (width: number, height: number, { crop, angle = 0 }: { crop?: TPageBoxes["crop"]; angle?: number } = {}): TPageBoxes => {
  const media = { x: 0, y: 0, width, height };
  return { media, crop: crop ?? media, angle };
};
const A4 = sheet(595.28, 841.89);
const good: Extract<TUploadedPdfRead, { outcome: "read" }> = {
  outcome: "read",
  encrypted: false,
  signed: false,
  activeContent: [],
  pages: 2,
  pageBoxes: [A4, A4],
  unembeddedFonts: [],
};
const problem = (read: Partial<typeof good> | TUploadedPdfRead, extra: { bytes?: number; isPdf?: boolean } = {}) =>
  uploadedPdfProblem({ bytes: extra.bytes ?? 1000, isPdf: extra.isPdf ?? true, read: { ...good, ...read } as TUploadedPdfRead });

describe("uploadedPdfProblem", () => {
  it("accepts a readable PDF within every bound", () => {
    expect(problem({})).toBeNull();
    expect(problem({ pages: 300, pageBoxes: Array.from({ length: 300 }, () => sheet(72, 2000)) })).toBeNull();
  });

  it("refuses a file over 25 MB before anything else, and a file that is not a PDF", () => {
    expect(uploadedPdfProblem({ bytes: MAX_UPLOADED_PDF_BYTES + 1, isPdf: false })).toBe("The file is 25.1 MB; a contract's document may be at most 25 MB.");
    expect(uploadedPdfProblem({ bytes: MAX_UPLOADED_PDF_BYTES, isPdf: false })).toBe("The file is not a PDF; upload the contract's document as a PDF.");
  });

  it("refuses a damaged, password-protected or too complex PDF", () => {
    expect(uploadedPdfProblem({ bytes: 10, isPdf: true })).toMatch(/^The PDF is damaged/);
    expect(problem({ outcome: "broken" })).toMatch(/^The PDF is damaged and cannot be read; save or print it to PDF again/);
    expect(problem({ outcome: "encrypted" })).toBe("The PDF is password-protected; upload it without a password (save it again with no password or encryption).");
    expect(problem({ encrypted: true })).toMatch(/password-protected/);
    expect(problem({ outcome: "too_complex" })).toMatch(/too complex/);
  });

  it("refuses a signed PDF", () => {
    expect(problem({ signed: true, activeContent: ["javascript"] })).toMatch(/^The PDF already carries a digital signature/);
  });

  it("names every kind of active content, and tells how to get rid of it", () => {
    expect(problem({ activeContent: ["javascript"] })).toBe(
      "The PDF contains JavaScript, which a contract's document may not carry; print it to PDF again and upload that.",
    );
    expect(problem({ activeContent: ["embedded_files", "launch", "javascript"] })).toBe(
      "The PDF contains JavaScript, an action that launches a program and embedded files, which a contract's document may not carry; print it to PDF again and upload that.",
    );
    expect(problem({ activeContent: ["xfa"] })).toMatch(/contains an XFA form, .*; flatten the form or print it to PDF again and upload that\.$/);
  });

  it("refuses no pages and more than 300", () => {
    expect(problem({ pages: 0, pageBoxes: [] })).toBe("The PDF has no pages; upload the document with its pages.");
    expect(problem({ pages: 301, pageBoxes: [] })).toBe("The PDF has 301 pages; a contract's document may have at most 300.");
  });

  it("names the first page whose side is under 72 or over 2,000 points", () => {
    expect(problem({ pages: 3, pageBoxes: [A4, sheet(5000, 5000), sheet(10, 10)] })).toBe(
      "Page 2 measures 176.4 × 176.4 cm; each side of a page must be between 2.5 and 70.6 cm, so export it again at a usual paper size such as A4 or Letter.",
    );
    expect(problem({ pages: 2, pageBoxes: [A4, sheet(71, 800)] })).toMatch(/^Page 2 measures 2.5 × 28.2 cm/);
    expect(problem({ pages: 1, pageBoxes: [sheet(2001, 500)] })).toMatch(/^Page 1 /);
    expect(problem({ pages: 1, pageBoxes: [sheet(Number.NaN, 500)] })).toMatch(/^Page 1 /);
    // As shown: the CropBox within the MediaBox, turned.
    expect(problem({ pages: 1, pageBoxes: [sheet(595, 842, { crop: { x: 0, y: 0, width: 1, height: 1 } })] })).toMatch(/^Page 1 measures 0 × 0 cm/);
    expect(problem({ pages: 1, pageBoxes: [sheet(3000, 842, { crop: { x: 100, y: 0, width: 500, height: 842 } })] })).toBeNull();
    expect(problem({ pages: 1, pageBoxes: [sheet(1000, 60, { angle: 90 })] })).toMatch(/^Page 1 measures 2.1 × 35.3 cm/);
  });

  it("refuses a page turned by other than a multiple of 90 degrees, which readers show differently", () => {
    expect(problem({ pages: 2, pageBoxes: [A4, sheet(595, 842, { angle: 45 })] })).toBe(
      "Page 2 is turned by 45°, which readers show differently; a page may be turned by a multiple of 90° only, so print it to PDF again and upload that.",
    );
    expect(problem({ pages: 1, pageBoxes: [sheet(595, 842, { angle: 89.6 })] })).toMatch(/^Page 1 is turned by 89.6°/);
    expect(problem({ pages: 1, pageBoxes: [sheet(595, 842, { angle: -270 })] })).toBeNull();
  });

  it("refuses a PDF the seal could not stamp, and one whose sealed copy would be larger than a sealed copy may be", () => {
    expect(problem({ sealable: false, sealedBytes: 0 })).toMatch(/^The PDF is damaged and cannot be read/);
    expect(problem({ sealable: true, sealedBytes: MAX_SEALED_PDF_BYTES - SEALED_PDF_CERTIFICATE_ROOM })).toBeNull();
    expect(problem({ sealable: true, sealedBytes: MAX_SEALED_PDF_BYTES - SEALED_PDF_CERTIFICATE_ROOM + 1 })).toBe(
      "The PDF would take 31.1 MB once prepared for sealing, more than a sealed copy may; export it again with smaller images and upload that.",
    );
    // Its other problems come first.
    expect(problem({ sealable: false, activeContent: ["javascript"] })).toMatch(/^The PDF contains JavaScript/);
  });

  it("names up to three fonts the PDF does not carry", () => {
    expect(problem({ unembeddedFonts: ["Arial"] })).toBe("The PDF uses fonts it does not carry (Arial); export it again with fonts embedded.");
    expect(problem({ unembeddedFonts: ["Arial", "Calibri", "Cambria", "Verdana"] })).toBe(
      "The PDF uses fonts it does not carry (Arial, Calibri, Cambria and others); export it again with fonts embedded.",
    );
  });
});
