"use client";

// The pages of a PDF, each drawn on a canvas as wide as its container (sharp on high-density
// screens), drawn only while near the screen and let go once far from it, so a 300-page PDF costs
// what the few pages in view cost. Over the canvas lies pdf.js's text layer (the page's text as
// transparent spans: selectable, and what a screen reader reads), drawn and let go with it; above
// that, each page's overlay, where boxes are placed by percentages of the page (a placement's
// shares × 100 %): the same numbers the API stores, at any width.
import { useEffect, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from "react";
import { ErrorState } from "@/components/states";
import { isCancelled, openPdf, pdfProblem, textLayerFor, type PDFDocumentProxy } from "./load-pdf";
// Comes with this module's chunk, which every page showing a PDF loads lazily (next/dynamic).
import "./text-layer.css";

/** A box's place on its page, as shares of the page from its top-left corner. */
export type TPageBox = { x: number; y: number; width: number; height: number };

/** The style that puts a box on its page's overlay. */
export const boxStyle = (box: TPageBox): CSSProperties => ({
  left: `${box.x * 100}%`,
  top: `${box.y * 100}%`,
  width: `${box.width * 100}%`,
  height: `${box.height * 100}%`,
});

/**
 * Each page's overlay carries its page number in `data-pdf-page`: where a drop landed. The overlay
 * itself lets the pointer through to the text below (selecting text); what is placed on it takes
 * the pointer back (`pointer-events: auto`, as Tailwind's `pointer-events-auto`).
 */
export const PAGE_OVERLAY_SELECTOR = "[data-pdf-page]";

type TPdfPagesProps = {
  /** The PDF's address on this site. */
  src: string;
  /** The page count the API gave, for the places pages take before the file has loaded. */
  pageCount: number;
  /** What lies on a page, above it: boxes placed with `boxStyle`. */
  overlay?: (page: number) => ReactNode;
  /** Where the PDF can be downloaded instead, offered when it cannot be shown. */
  downloadHref?: string;
};

type TLoad = { kind: "loading" } | { kind: "failed"; message: string } | { kind: "ready"; doc: PDFDocumentProxy; ratio: number };

/** A US Letter page's height over its width: the placeholder's shape until the first page is measured. */
const LETTER_RATIO = 11 / 8.5;
/** Page widths offered, as multiples of the container's width: a phone's reader enlarges small print and scrolls sideways. */
const ZOOMS = [1, 1.5, 2, 3] as const;

export function PdfPages({ src, pageCount, overlay, downloadHref }: TPdfPagesProps) {
  const [load, setLoad] = useState<TLoad>({ kind: "loading" });
  const [attempt, setAttempt] = useState(0);
  const [zoom, setZoom] = useState(0);
  const viewport = useRef<HTMLDivElement>(null);
  const width = Math.round(useSettledWidth(viewport) * ZOOMS[zoom]!);

  useEffect(() => {
    const pdf = openPdf(src);
    let live = true;
    setLoad({ kind: "loading" });
    pdf.promise
      .then(async (doc) => {
        const first = (await doc.getPage(1)).getViewport({ scale: 1 });
        if (live) setLoad({ kind: "ready", doc, ratio: first.height / first.width });
      })
      .catch((error: unknown) => {
        if (live) setLoad({ kind: "failed", message: pdfProblem(error) });
      });
    return () => {
      live = false;
      pdf.destroy();
    };
  }, [src, attempt]);

  const pages = load.kind === "ready" ? load.doc.numPages : pageCount;
  return (
    <div>
      {load.kind === "loading" ? (
        <p role="status" className="mb-2 text-sm text-slate-600">
          Loading the PDF…
        </p>
      ) : null}
      {load.kind === "failed" ? (
        <div className="mb-3">
          <ErrorState title="Could not show the PDF." error={new Error(load.message)} onRetry={() => setAttempt((n) => n + 1)} />
          {downloadHref ? (
            <p className="mt-2 text-sm">
              <a className="font-medium text-blue-700 underline" href={downloadHref}>
                Download the PDF
              </a>
            </p>
          ) : null}
        </div>
      ) : null}
      <div className="mb-2 flex items-center gap-2 text-sm text-slate-700">
        <button
          type="button"
          className="rounded border border-slate-300 bg-white px-2 py-0.5 font-medium disabled:opacity-40"
          onClick={() => setZoom((z) => Math.max(0, z - 1))}
          disabled={zoom === 0}
        >
          Smaller<span className="sr-only"> pages</span>
        </button>
        <button
          type="button"
          className="rounded border border-slate-300 bg-white px-2 py-0.5 font-medium disabled:opacity-40"
          onClick={() => setZoom((z) => Math.min(ZOOMS.length - 1, z + 1))}
          disabled={zoom === ZOOMS.length - 1}
        >
          Larger<span className="sr-only"> pages</span>
        </button>
        <span aria-live="polite">{zoom === 0 ? "Pages fit the width" : `Pages at ${ZOOMS[zoom]! * 100} %`}</span>
      </div>
      {/* Wider than its place when enlarged: it scrolls sideways on its own (and by keyboard), never the whole page. */}
      <div
        ref={viewport}
        className={zoom > 0 ? "overflow-x-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600" : ""}
        tabIndex={zoom > 0 ? 0 : undefined}
        role={zoom > 0 ? "region" : undefined}
        aria-label={zoom > 0 ? "Enlarged pages" : undefined}
      >
        <div className="space-y-4" style={{ width: `${ZOOMS[zoom]! * 100}%` }}>
          {Array.from({ length: pages }, (_, i) => (
            <PdfPage
              key={i}
              doc={load.kind === "ready" ? load.doc : null}
              number={i + 1}
              count={pages}
              width={width}
              fallbackRatio={load.kind === "ready" ? load.ratio : LETTER_RATIO}
              overlay={overlay}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

type TPageProps = {
  doc: PDFDocumentProxy | null;
  number: number;
  count: number;
  width: number;
  fallbackRatio: number;
  overlay: TPdfPagesProps["overlay"];
};

/** The most pixels one canvas gets (browsers refuse larger ones; memory is the real limit). */
const MAX_CANVAS_PIXELS = 8_000_000;

function PdfPage({ doc, number, count, width, fallbackRatio, overlay }: TPageProps) {
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const text = useRef<HTMLDivElement>(null);
  const near = useNearScreen(frame);
  const [ratio, setRatio] = useState<number | null>(null);
  const [state, setState] = useState<"waiting" | "drawn" | "failed">("waiting");
  const drawnBefore = useRef(false);

  useEffect(() => {
    const target = canvas.current;
    const textTarget = text.current;
    if (!doc || !target || !textTarget || width === 0) return;
    if (!near) {
      // Far from view: give the pixels, the text's spans (and the page's parsed resources) back; drawn again when it comes near.
      target.width = 0;
      target.height = 0;
      textTarget.replaceChildren();
      setState("waiting");
      if (drawnBefore.current) void doc.getPage(number).then((page) => page.cleanup(), () => undefined);
      return;
    }
    let task: ReturnType<Awaited<ReturnType<PDFDocumentProxy["getPage"]>>["render"]> | undefined;
    let textLayer: { cancel: () => void } | undefined;
    let live = true;
    void (async () => {
      try {
        const page = await doc.getPage(number);
        if (!live) return;
        drawnBefore.current = true;
        const natural = page.getViewport({ scale: 1 });
        setRatio(natural.height / natural.width);
        const scale = width / natural.width;
        const density = Math.min(window.devicePixelRatio || 1, Math.sqrt(MAX_CANVAS_PIXELS / (natural.width * scale * natural.height * scale)));
        const viewport = page.getViewport({ scale: scale * Math.max(density, 0.5) });
        target.width = Math.floor(viewport.width);
        target.height = Math.floor(viewport.height);
        task = page.render({ canvas: target, viewport });
        // The text at CSS pixels (its spans are placed in percentages, sized by --total-scale-factor).
        const cssViewport = page.getViewport({ scale });
        textTarget.replaceChildren();
        textTarget.style.setProperty("--total-scale-factor", String(cssViewport.scale * cssViewport.userUnit));
        // Text that cannot be laid out is not worth failing the page for: the canvas still shows it.
        const layer = await textLayerFor(page, textTarget, cssViewport).catch(() => null);
        if (!live) return layer?.cancel();
        textLayer = layer ?? undefined;
        await Promise.all([task.promise, layer?.render().catch(() => undefined)]);
        if (live) setState("drawn");
      } catch (error) {
        if (live && !isCancelled(error)) setState("failed");
      }
    })();
    return () => {
      live = false;
      task?.cancel();
      textLayer?.cancel();
    };
  }, [doc, number, width, near]);

  const label = `Page ${number} of ${count}`;
  return (
    <div
      ref={frame}
      role="group"
      aria-label={label}
      className="relative w-full overflow-hidden border border-slate-300 bg-white shadow-sm"
      style={{ aspectRatio: `1 / ${ratio ?? fallbackRatio}` }}
    >
      <canvas ref={canvas} aria-hidden="true" className={`absolute inset-0 h-full w-full ${state === "drawn" ? "" : "invisible"}`} />
      {state === "waiting" ? <div aria-hidden="true" className="absolute inset-0 animate-pulse bg-slate-100" /> : null}
      {state === "failed" ? <p className="absolute inset-x-0 top-4 text-center text-sm text-red-800">Page {number} could not be drawn.</p> : null}
      <div ref={text} className="textLayer" />
      <div className="pointer-events-none absolute inset-0 z-10" data-pdf-page={number}>
        {overlay?.(number)}
      </div>
    </div>
  );
}

/** The element's width in CSS pixels, updated once a resize has settled (redrawing on every frame of a resize would be wasted). */
function useSettledWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let measured = false;
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.round(entry?.contentRect.width ?? 0);
      clearTimeout(timer);
      // The first measurement at once; later ones after the resize stops (the canvas stretches meanwhile).
      timer = setTimeout(() => setWidth((previous) => (Math.abs(previous - next) > 1 ? next : previous)), measured ? 150 : 0);
      measured = true;
    });
    observer.observe(element);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, [ref]);
  return width;
}

/** Whether the element is within a screen's height of the viewport: near enough to draw. */
function useNearScreen(ref: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new IntersectionObserver(([entry]) => setNear(entry?.isIntersecting ?? false), { rootMargin: "100% 0px" });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return near;
}
