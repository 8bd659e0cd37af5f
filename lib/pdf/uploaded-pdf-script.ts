// The worker script (run by pdf-worker.ts, after its prelude) that reads a PDF uploaded as the
// contract's document and posts what lib/domain/uploaded-pdf.ts decides on (a TUploadedPdfRead):
// encryption, signatures, active content, the pages' count, boxes and turn, fonts it does not carry;
// and, for a PDF that is read, the document as it is kept (below, at the end). An attachment's PDF
// (workerData.attachment) is read up to its pages' count (lib/domain/attachment-pdf.ts decides).
//
// Every walk is bounded: the PDF has at most workerData.maxObjects objects; the walks together take
// at most workerData.maxSteps steps (one per object or entry looked at) and never revisit an
// indirect object; the scan of the catalog and the page tree keep their own stack (no recursion),
// and the fonts' walk through Form XObjects, patterns and appearance streams goes
// workerData.maxFormDepth levels deep at most. Past any bound the PDF is "too_complex".
// Names are compared decoded, lowercase #xx escapes too (pdf-lib decodes only uppercase ones).
//
// Plain CommonJS in a string (String.raw: no interpolation, backslashes kept).
export const UPLOADED_PDF_SCRIPT = String.raw`
console.log = console.warn = console.error = () => {};
const { PDFDocument, EncryptedPDFError, PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, PDFStream } = pdfLib;

const STANDARD_14 = new Set([
  "Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique",
  "Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic",
  "Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique",
  "Symbol", "ZapfDingbats",
]);
const MAX_FONT_NAMES = 20;

class TooComplex extends Error {}
let steps = 0;
const step = (n) => {
  steps += n;
  if (steps > workerData.maxSteps) throw new TooComplex("steps");
};

const nameText = (name) => name.decodeText().replace(/#([0-9a-fA-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));

function inspect(doc) {
  const context = doc.context;
  const resolve = (value) => (value instanceof PDFRef ? context.lookup(value) : value);
  const dictOf = (value) => {
    const object = resolve(value);
    if (object instanceof PDFDict) return object;
    if (object instanceof PDFStream) return object.dict;
    return undefined;
  };
  const nameOf = (value) => {
    const object = resolve(value);
    return object instanceof PDFName ? nameText(object) : undefined;
  };
  // A dictionary's entries by decoded key (a key may be spelt with #xx escapes).
  const entries = (dict) => {
    const out = new Map();
    const all = dict.entries();
    step(all.length);
    for (const [key, value] of all) out.set(nameText(key), value);
    return out;
  };

  if (context.enumerateIndirectObjects().length > workerData.maxObjects) return { outcome: "too_complex" };
  const catalog = dictOf(context.trailerInfo.Root);
  if (!catalog) return { outcome: "broken" };
  const top = entries(catalog);

  // Active content and signatures: everything the catalog reaches.
  const active = new Set();
  let signed = false;
  const names = dictOf(top.get("Names"));
  if (names) {
    const named = entries(names);
    if (named.has("JavaScript")) active.add("javascript");
    if (named.has("EmbeddedFiles")) active.add("embedded_files");
  }
  const acroForm = dictOf(top.get("AcroForm"));
  if (acroForm && entries(acroForm).has("XFA")) active.add("xfa");
  // Layers (optional content) that start hidden, switch by event (print, view, zoom) or offer
  // other configurations: the signing page (pdf.js) shows the default view only, so the signer would
  // not see what printing or another reader shows.
  const layers = dictOf(top.get("OCProperties"));
  if (layers) {
    const config = dictOf(entries(layers).get("D"));
    const settings = config ? entries(config) : new Map();
    const nonEmpty = (value) => {
      const array = resolve(value);
      return array instanceof PDFArray && array.size() > 0;
    };
    const base = nameOf(settings.get("BaseState"));
    // Set by event (/AS) matters only for a layer whose usage turns it off somewhere or by zoom;
    // a publishing program writes /AS for layers shown everywhere.
    const ocgs = resolve(entries(layers).get("OCGs"));
    const offSomewhere = (ocgs instanceof PDFArray ? ocgs.asArray() : []).some((ref) => {
      step(1);
      const ocg = dictOf(ref);
      const usage = ocg ? dictOf(entries(ocg).get("Usage")) : undefined;
      if (!usage) return false;
      const use = entries(usage);
      const off = (key, state) => {
        const dict = dictOf(use.get(key));
        return dict !== undefined && nameOf(entries(dict).get(state)) === "OFF";
      };
      return off("View", "ViewState") || off("Print", "PrintState") || off("Export", "ExportState") || use.has("Zoom");
    });
    if (nonEmpty(settings.get("OFF")) || (nonEmpty(settings.get("AS")) && offSomewhere) || (base !== undefined && base !== "ON") || nonEmpty(entries(layers).get("Configs"))) {
      active.add("hidden_content");
    }
  }
  const perms = dictOf(top.get("Perms"));
  if (perms) {
    const kinds = entries(perms);
    if (kinds.has("DocMDP") || kinds.has("UR3")) signed = true;
  }
  const seen = new Set();
  const stack = [context.trailerInfo.Root];
  while (stack.length > 0) {
    let object = stack.pop();
    step(1);
    if (object instanceof PDFRef) {
      if (seen.has(object)) continue;
      seen.add(object);
      object = context.lookup(object);
    }
    if (object instanceof PDFStream) object = object.dict;
    let children;
    if (object instanceof PDFDict) {
      const dict = entries(object);
      const s = nameOf(dict.get("S"));
      if (s === "JavaScript" || dict.has("JS")) active.add("javascript");
      if (s === "Launch") active.add("launch");
      // Actions that reach outside the document: open another file (a network path leaks the
      // reader's Windows credentials to that server), or send or import a form's data.
      if (s === "GoToR" || s === "GoToE" || s === "SubmitForm" || s === "ImportData" || (s === "Thread" && dict.has("F"))) active.add("outside_actions");
      // Switching layers or showing a hidden annotation on a click, or an annotation kept off the screen but printed (NoView with
      // Print), shown by hovering (ToggleNoView), or shown on the screen and left off paper (neither Hidden, NoView nor
      // Print; a link or a pop-up without an appearance of its own may: a link draws nothing, a pop-up opens from its
      // parent): seen otherwise than on the signing page, or on the signed copy printed.
      if (s === "SetOCGState" || s === "Hide") active.add("hidden_content");
      if (dict.has("Rect")) {
        const flagsValue = resolve(dict.get("F"));
        const flags = flagsValue instanceof PDFNumber ? flagsValue.asNumber() : 0;
        const flag = (bit) => (flags & bit) !== 0;
        // The annotation flags (PDF 32000-1, 12.5.3): Hidden 2, Print 4, NoView 32, ToggleNoView 256.
        const printedUnseen = flag(32) && flag(4);
        const subtype = nameOf(dict.get("Subtype"));
        const draws = dict.has("AP") || (subtype !== "Link" && subtype !== "Popup");
        const seenUnprinted = draws && !flag(2) && !flag(4) && !flag(32);
        if (printedUnseen || flag(256) || seenUnprinted) active.add("hidden_content");
      }
      // Sound, video and 3D: played by some readers on a click, never shown on the signing page
      // (pdf.js): the signer would not have seen what the sealed copy can show.
      if (s === "Sound" || s === "Movie" || s === "Rendition" || s === "RichMediaExecute" || s === "GoTo3DView") active.add("media");
      const subtype = nameOf(dict.get("Subtype"));
      if (subtype === "Sound" || subtype === "Movie" || subtype === "Screen" || subtype === "RichMedia" || subtype === "3D") active.add("media");
      // A link is to a web page or an e-mail address: file: and other schemes open files too.
      if (s === "URI") {
        const uri = resolve(dict.get("URI"));
        const text = uri && typeof uri.decodeText === "function" ? uri.decodeText() : "";
        if (!/^\s*(https?:\/\/[^\s\\/]|mailto:)/i.test(text) || text.includes("\\")) active.add("outside_actions");
      }
      if (nameOf(dict.get("Type")) === "EmbeddedFile" || dict.has("EF") || nameOf(dict.get("Subtype")) === "FileAttachment") active.add("embedded_files");
      if (dict.has("ByteRange")) signed = true;
      if (nameOf(dict.get("FT")) === "Sig" && dict.has("V") && resolve(dict.get("V")) !== pdfLib.PDFNull) signed = true;
      children = dict.values();
    } else if (object instanceof PDFArray) {
      children = object.asArray();
      step(children.length);
    } else continue;
    for (const child of children) {
      if (child instanceof PDFRef || child instanceof PDFDict || child instanceof PDFArray || child instanceof PDFStream) stack.push(child);
    }
  }

  // The page tree, leaves in order, with what a page inherits.
  const pages = [];
  let count = 0;
  const visited = new Set();
  const tree = [{ node: top.get("Pages"), inherited: {} }];
  while (tree.length > 0) {
    const { node, inherited } = tree.pop();
    step(1);
    if (node instanceof PDFRef) {
      // A node reached twice (a loop, or a page listed twice) is a damaged tree.
      if (visited.has(node)) return { outcome: "broken" };
      visited.add(node);
    }
    const dict = dictOf(node);
    if (!dict) return { outcome: "broken" };
    const own = entries(dict);
    const attributes = { Resources: own.get("Resources") || inherited.Resources };
    const kids = resolve(own.get("Kids"));
    if (kids instanceof PDFArray) {
      const list = kids.asArray();
      step(list.length);
      for (let index = list.length - 1; index >= 0; index -= 1) tree.push({ node: list[index], inherited: attributes });
    } else {
      count += 1;
      if (count <= workerData.maxPages) pages.push({ dict: own, attributes });
    }
  }
  // An attachment (workerData.attachment) is read this far: what acts in it, and its pages. It is
  // neither stamped nor kept rewritten, so its boxes, fonts and the seal's trial do not matter.
  if (count < 1 || count > workerData.maxPages || workerData.attachment) {
    return { outcome: "read", encrypted: doc.isEncrypted, signed, activeContent: [...active], pages: count, pageBoxes: [], unembeddedFonts: [] };
  }

  // pdf-lib, which later stamps the pages, must see the same ones. Each page's boxes and turn as it
  // reads them (the stamps are drawn by the same reading: lib/domain/page-frame.ts).
  if (doc.getPageCount() !== count) return { outcome: "broken" };
  const pageBoxes = doc.getPages().map((page) => ({ media: page.getMediaBox(), crop: page.getCropBox(), angle: page.getRotation().angle }));
  const finite = ({ x, y, width, height }) => [x, y, width, height].every(Number.isFinite);
  if (!pageBoxes.every(({ media, crop, angle }) => finite(media) && finite(crop) && Number.isFinite(angle))) return { outcome: "broken" };

  // Fonts neither embedded nor among the standard 14, through the pages' resources, their Form
  // XObjects and tiling patterns, and the annotations' appearance streams.
  const unembedded = new Set();
  const fontsSeen = new Set();
  const resourcesSeen = new Set();
  const formsSeen = new Set();
  const checkFont = (value) => {
    const font = dictOf(value);
    if (!font || fontsSeen.has(font)) return;
    fontsSeen.add(font);
    const own = entries(font);
    const subtype = nameOf(own.get("Subtype"));
    if (subtype === "Type3") return;
    let target = own;
    if (subtype === "Type0") {
      const descendants = resolve(own.get("DescendantFonts"));
      const first = descendants instanceof PDFArray && descendants.size() > 0 ? dictOf(descendants.get(0)) : undefined;
      if (first) target = entries(first);
    }
    const descriptor = dictOf(target.get("FontDescriptor"));
    if (descriptor) {
      const files = entries(descriptor);
      if (files.has("FontFile") || files.has("FontFile2") || files.has("FontFile3")) return;
    }
    const base = nameOf(target.get("BaseFont")) || nameOf(own.get("BaseFont"));
    const plain = base ? base.replace(/^[A-Z]{6}\+/, "") : undefined;
    if (plain && STANDARD_14.has(plain)) return;
    if (unembedded.size < MAX_FONT_NAMES) unembedded.add(plain || "a font without a name");
  };
  const walkForm = (value, depth) => {
    const stream = resolve(value);
    if (!(stream instanceof PDFStream) || formsSeen.has(stream)) return;
    formsSeen.add(stream);
    step(1);
    walkResources(entries(stream.dict).get("Resources"), depth + 1);
  };
  const walkAppearances = (value, depth) => {
    const object = resolve(value);
    if (object instanceof PDFStream) return walkForm(object, depth);
    if (object instanceof PDFDict) for (const state of entries(object).values()) walkForm(state, depth);
  };
  const walkResources = (value, depth) => {
    if (depth > workerData.maxFormDepth) throw new TooComplex("depth");
    const resources = dictOf(value);
    if (!resources || resourcesSeen.has(resources)) return;
    resourcesSeen.add(resources);
    const kinds = entries(resources);
    const fonts = dictOf(kinds.get("Font"));
    if (fonts) for (const font of entries(fonts).values()) checkFont(font);
    const xObjects = dictOf(kinds.get("XObject"));
    if (xObjects) {
      for (const x of entries(xObjects).values()) {
        const object = resolve(x);
        if (object instanceof PDFStream && nameOf(entries(object.dict).get("Subtype")) === "Form") walkForm(object, depth);
      }
    }
    const patterns = dictOf(kinds.get("Pattern"));
    if (patterns) for (const pattern of entries(patterns).values()) walkForm(pattern, depth);
  };
  for (const { dict, attributes } of pages) {
    walkResources(attributes.Resources, 0);
    const annotations = resolve(dict.get("Annots"));
    if (annotations instanceof PDFArray) {
      const list = annotations.asArray();
      step(list.length);
      for (const annotation of list) {
        const annotationDict = dictOf(annotation);
        const appearance = annotationDict && dictOf(entries(annotationDict).get("AP"));
        if (appearance) for (const kind of entries(appearance).values()) walkAppearances(kind, 0);
      }
    }
  }

  return { outcome: "read", encrypted: doc.isEncrypted, signed, activeContent: [...active], pages: count, pageBoxes, unembeddedFonts: [...unembedded] };
}

(async () => {
  let doc;
  try {
    doc = await PDFDocument.load(workerData.bytes, { updateMetadata: false, throwOnInvalidObject: true, parseSpeed: pdfLib.ParseSpeeds.Fastest });
  } catch (error) {
    if (error instanceof EncryptedPDFError) return parentPort.postMessage({ outcome: "encrypted" });
    if (overBudget) return parentPort.postMessage({ outcome: "too_complex" });
    // An encrypted PDF whose objects pdf-lib cannot parse (encrypted object streams) fails before
    // pdf-lib looks at its trailer: read it leniently for the trailer's /Encrypt.
    try {
      const lenient = await PDFDocument.load(workerData.bytes, { updateMetadata: false, ignoreEncryption: true });
      return parentPort.postMessage({ outcome: lenient.isEncrypted ? "encrypted" : "broken" });
    } catch {
      return parentPort.postMessage({ outcome: "broken" });
    }
  }
  const failed = (error) => ({ outcome: error instanceof TooComplex || overBudget || (error && error.name === "RangeError") ? "too_complex" : "broken" });
  let read;
  try {
    read = inspect(doc);
  } catch (error) {
    return parentPort.postMessage(failed(error));
  }
  if (read.outcome !== "read" || read.pageBoxes.length === 0) return parentPort.postMessage(read);
  // The document as it is kept: pdf-lib's reading of it written out once (one copy of each object,
  // one cross-reference table). A reader that follows the upload's cross-reference table could show
  // other objects than pdf-lib, which keeps the last copy of each in the file, reads and stamps; the
  // stored document has only the copies the seal stamps, so every reader shows what is signed.
  // Nothing else runs in this worker, so pdf-lib writes without yielding between objects (it
  // yields every 50 by default: seconds at 100,000).
  let document;
  try {
    document = await doc.save({ updateFieldAppearances: false, objectsPerTick: Infinity });
  } catch (error) {
    return parentPort.postMessage(failed(error));
  }
  // Then what sealing does, tried on the document as kept: loaded again, a text and a line drawn
  // on every page, a page added (the certificate's), the signature's placeholder added, written out
  // as the seal writes it (no object streams). A page pdf-lib reads but cannot draw on, or a catalog
  // the placeholder cannot take, would otherwise fail only in the sealing job (sealable: false); the
  // size written is the sealed copy's but for the certificate's text.
  let sealedBytes = null;
  try {
    const trial = await PDFDocument.load(document, { updateMetadata: false, throwOnInvalidObject: true, parseSpeed: pdfLib.ParseSpeeds.Fastest });
    const font = await trial.embedFont(pdfLib.StandardFonts.Helvetica);
    for (const page of trial.getPages()) {
      page.drawText("x", { x: 0, y: 0, size: 5, font, rotate: pdfLib.degrees(page.getRotation().angle) });
      page.drawLine({ start: { x: 0, y: 0 }, end: { x: 1, y: 1 }, thickness: 0.5 });
    }
    trial.addPage();
    require("@signpdf/placeholder-pdf-lib").pdflibAddPlaceholder({
      pdfDoc: trial,
      reason: "",
      contactInfo: "",
      name: "",
      location: "",
      signatureLength: workerData.signatureBytes,
      subFilter: "ETSI.CAdES.detached",
    });
    sealedBytes = (await trial.save({ useObjectStreams: false, objectsPerTick: Infinity })).length;
  } catch (error) {
    if (failed(error).outcome === "too_complex") return parentPort.postMessage(failed(error));
  }
  parentPort.postMessage({ ...read, document, sealable: sealedBytes !== null, sealedBytes: sealedBytes ?? 0 }, [document.buffer]);
})();
`;
