// pdf.js, loaded only when a PDF is shown: `import("pdfjs-dist")` makes it a chunk of its own, so no
// page's first load carries it. Its worker and data files come from our own origin
// (./pdfjs-assets.ts), which the pages' CSP allows as it is.
import type { PageViewport, PDFDocumentLoadingTask, PDFDocumentProxy, PDFPageProxy, TextLayer } from "pdfjs-dist";
import { pdfjsAssetBase } from "./pdfjs-assets";

export type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist";

let library: Promise<typeof import("pdfjs-dist")> | undefined;

function loadLibrary() {
  library ??= import("pdfjs-dist").then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerSrc = `${pdfjsAssetBase(pdfjs.version)}pdf.worker.min.mjs`;
    return pdfjs;
  });
  // A failed chunk load (offline for a moment) is tried again next time, not remembered.
  library.catch(() => (library = undefined));
  return library;
}

/** The PDF at `url` (same origin: the session cookie or the signing link is the credential), and a way to stop loading it. */
export function openPdf(url: string): { promise: Promise<PDFDocumentProxy>; destroy: () => void } {
  let task: PDFDocumentLoadingTask | undefined;
  let destroyed = false;
  const promise = loadLibrary().then((pdfjs) => {
    if (destroyed) throw new Error("Stopped.");
    const base = pdfjsAssetBase(pdfjs.version);
    task = pdfjs.getDocument({
      url,
      cMapUrl: `${base}cmaps/`,
      standardFontDataUrl: `${base}standard_fonts/`,
      wasmUrl: `${base}wasm/`,
      iccUrl: `${base}iccs/`,
      // pdf.js 6 has no code path that evaluates strings any more (its old `isEvalSupported` option
      // is gone), runs no PDF scripts unless asked (`enableScripting` is a viewer feature we do not
      // use), and renders forms only as their appearance: nothing in a PDF runs on our page.
      enableXfa: false,
      // Pages are drawn on the main thread, one at a time as they scroll into view; the optional
      // rendering worker would be a second script to serve for little gain at these sizes.
      disableWorkerRendering: true,
    });
    return task.promise;
  });
  return {
    promise,
    destroy: () => {
      destroyed = true;
      void task?.destroy();
    },
  };
}

/**
 * pdf.js's text layer for `page` in `container` (laid out for `viewport`, in CSS pixels): call
 * `render()` to fill it with the page's text, `cancel()` to stop. The library is loaded already
 * once there is a page.
 */
export async function textLayerFor(page: PDFPageProxy, container: HTMLElement, viewport: PageViewport): Promise<TextLayer> {
  const pdfjs = await loadLibrary();
  return new pdfjs.TextLayer({ textContentSource: page.streamTextContent(), container, viewport });
}

/** A loading or drawing failure in words for the person looking at the page. */
export function pdfProblem(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "PasswordException") return "The PDF is protected by a password, so it cannot be shown here.";
  if (name === "InvalidPDFException") return "The file is not a readable PDF.";
  if (name === "ResponseException") return "The PDF could not be downloaded. Check your connection and try again.";
  return "The PDF could not be shown. Try again, or download it instead.";
}

export const isCancelled = (error: unknown) => error instanceof Error && error.name === "RenderingCancelledException";
