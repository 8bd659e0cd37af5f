"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from "react";
import { boxStyle, PAGE_OVERLAY_SELECTOR, PdfPages, type TPageBox } from "@/components/pdf-pages/pdf-pages";
import { labelledProblem } from "@/components/problems";
import { RequestError } from "@/lib/client/fetch-json";
import { MIN_BOX_SHARE, PLACEMENT_KIND_WORDS } from "@/lib/domain/placement";
import { v1Queries } from "@/lib/client/v1";
import type { TContractDocument } from "@/lib/schemas/document";
import type { TCreatePlacementRequest } from "@/lib/schemas/placement";
import { allDataFieldsQuery } from "./contract-queries";
import { placementsQuery, usePlacementChanges, type TPlacement } from "./placement-queries";

type TUploadedPdf = NonNullable<TContractDocument["uploaded_pdf"]>;
type TKind = TPlacement["kind"];
/** What a chip places: a kind, and whose it is. */
type TChip = { kind: TKind; participant_id?: number; data_field_id?: number; label: string };

/** A new box's size, as shares of the page: a signature is wider and taller than a line of text. */
const DEFAULT_SIZE: Record<TKind, { width: number; height: number }> = {
  signature: { width: 0.3, height: 0.06 },
  name: { width: 0.3, height: 0.04 },
  date_signed: { width: 0.2, height: 0.04 },
  data_field: { width: 0.3, height: 0.04 },
};
/** An arrow key moves a box by 1 % of the page; with Shift, by 5 %. Shift+Alt+arrow changes its size by 1 %. */
const KEY_STEP = 0.01;
const KEY_STEP_LARGE = 0.05;
/** A press that moves less than this (CSS pixels) is not a drag. */
const DRAG_THRESHOLD = 4;

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);
/** Shares as the API keeps them, without float noise (0.30000000000000004). */
const tidy = (share: number) => Math.round(share * 10_000) / 10_000;
const localHref = (href: string) => (href.startsWith("http") ? new URL(href).pathname + new URL(href).search : href);

/**
 * A box's top-left corner for a drop at (`clientX`, `clientY`) with the pointer `grab` (shares of
 * the page) from the box's corner, kept on the page; null when the pointer is over no page. Found by
 * the pages' rectangles, not by hit-testing: the overlays let the pointer through to the text.
 */
function dropAt(clientX: number, clientY: number, size: { width: number; height: number }, grab: { x: number; y: number }) {
  const overlay = Array.from(document.querySelectorAll<HTMLElement>(PAGE_OVERLAY_SELECTOR)).find((element) => {
    const rect = element.getBoundingClientRect();
    return clientX >= rect.left && clientX <= rect.right && clientY >= rect.top && clientY <= rect.bottom;
  });
  if (!overlay) return null;
  const rect = overlay.getBoundingClientRect();
  return {
    page: Number(overlay.dataset.pdfPage),
    x: tidy(clamp((clientX - rect.left) / rect.width - grab.x, 0, 1 - size.width)),
    y: tidy(clamp((clientY - rect.top) / rect.height - grab.y, 0, 1 - size.height)),
  };
}

/**
 * A box's size with its top-left corner kept: at least the smallest size the API takes, and no
 * further than the page's right and bottom edges.
 */
function resized(box: TPageBox, width: number, height: number) {
  return { width: tidy(clamp(width, MIN_BOX_SHARE, 1 - box.x)), height: tidy(clamp(height, MIN_BOX_SHARE, 1 - box.y)) };
}

/** A refused change in one sentence for the person at the editor. */
function placementProblem(error: unknown): string {
  if (!(error instanceof RequestError)) return "The change could not be saved.";
  const [field, messages] = Object.entries(error.parameterProblems)[0] ?? [];
  const first = messages?.[0];
  if (!field || !first) return error.message;
  const label = field === "page" ? "The page" : field === "participant_id" ? "The signatory" : field === "data_field_id" ? "The data field" : "The box";
  return labelledProblem(label, first);
}

type TDrag =
  | { what: "chip"; chip: TChip; startX: number; startY: number; x: number; y: number; moved: boolean }
  | { what: "box"; placement: TPlacement; grab: { x: number; y: number }; startX: number; startY: number; x: number; y: number; moved: boolean; grabPx: { x: number; y: number }; boxPx: { width: number; height: number } }
  | { what: "resize"; placement: TPlacement; startX: number; startY: number; x: number; y: number; moved: boolean; pagePx: { width: number; height: number } };

/** The size a resize drag has reached: the pointer's travel since the press, as shares of the page, added to the box's size. */
const resizeOf = (drag: Extract<TDrag, { what: "resize" }>) =>
  resized(drag.placement, drag.placement.width + (drag.x - drag.startX) / drag.pagePx.width, drag.placement.height + (drag.y - drag.startY) / drag.pagePx.height);

/**
 * The uploaded PDF's pages with their boxes. With `editable` (a draft the user may change): a
 * palette of chips, one per box a signatory or data field can have, dragged onto a page (or added
 * to a chosen page with its button); boxes are moved by dragging or with the arrow keys, resized by
 * dragging their bottom-right handle or with Shift+Alt+arrow keys, and removed with their × button.
 * Otherwise the boxes are shown as they are.
 */
export function PlacementEditor({ contractId, pdf, editable }: { contractId: number; pdf: TUploadedPdf; editable: boolean }) {
  const contract = useQuery(v1Queries.contract(contractId));
  const placements = useQuery(placementsQuery(contractId));
  const dataFields = useQuery({ ...allDataFieldsQuery(contractId), enabled: editable });
  const { create, move, remove } = usePlacementChanges(contractId);
  const [problem, setProblem] = useState<string | null>(null);
  const [drag, setDrag] = useState<TDrag | null>(null);
  const [targetPage, setTargetPage] = useState(1);
  const pageFieldId = useId();
  const paletteTitleId = useId();
  const boxHelpId = useId();

  const signatories = (contract.data?.parties ?? [])
    .flatMap((party) => (party.type === "company" ? party.participants : [party.participant]))
    .filter((p) => p.signatory)
    .map((p) => ({ id: p.id, name: p.name }));
  const names = new Map(signatories.map((s) => [s.id, s.name]));
  const fieldNames = new Map((dataFields.data?.data ?? []).map((f) => [f.id, f.name]));
  const chips: TChip[] = [
    ...signatories.flatMap((s) =>
      (["signature", "name", "date_signed"] as const).map((kind) => ({ kind, participant_id: s.id, label: `${PLACEMENT_KIND_WORDS[kind]} — ${s.name}` })),
    ),
    ...(dataFields.data?.data ?? []).map((f) => ({ kind: "data_field" as const, data_field_id: f.id, label: `${PLACEMENT_KIND_WORDS.data_field} — ${f.name}` })),
  ];
  const boxes = placements.data?.data ?? [];
  const ownerOf = (p: TPlacement) =>
    p.kind === "data_field" ? (p.data_field_id !== null ? (fieldNames.get(p.data_field_id) ?? "a data field") : "a data field") : p.participant_id !== null ? (names.get(p.participant_id) ?? "a participant") : "a participant";
  const labelOf = (p: TPlacement) => `${PLACEMENT_KIND_WORDS[p.kind]} — ${ownerOf(p)}`;

  const done = { onSuccess: () => setProblem(null), onError: (error: unknown) => setProblem(placementProblem(error)) };
  function place(chip: TChip, at: { page: number; x: number; y: number }) {
    const request: TCreatePlacementRequest = {
      kind: chip.kind,
      ...(chip.participant_id !== undefined ? { participant_id: chip.participant_id } : {}),
      ...(chip.data_field_id !== undefined ? { data_field_id: chip.data_field_id } : {}),
      ...at,
      ...DEFAULT_SIZE[chip.kind],
    };
    create.mutate(request, done);
  }

  /** The keyboard's way: a default spot on the chosen page, below the boxes already there. */
  function addToPage(chip: TChip) {
    const size = DEFAULT_SIZE[chip.kind];
    const onPage = boxes.filter((b) => b.page === targetPage).length;
    place(chip, { page: targetPage, x: 0.1, y: tidy(clamp(0.1 + (onPage % 10) * 0.08, 0, 1 - size.height)) });
  }

  // While a drag lasts, the pointer is followed over the whole window; the drop ends it.
  const dragRef = useRef(drag);
  dragRef.current = drag;
  const dragging = drag !== null;
  useEffect(() => {
    if (!dragging) return;
    function onMove(event: PointerEvent) {
      setDrag((current) =>
        current && {
          ...current,
          x: event.clientX,
          y: event.clientY,
          moved: current.moved || Math.hypot(event.clientX - current.startX, event.clientY - current.startY) >= DRAG_THRESHOLD,
        },
      );
    }
    function onUp(event: PointerEvent) {
      const current = dragRef.current;
      setDrag(null);
      if (!current?.moved) return;
      if (current.what === "chip") {
        const size = DEFAULT_SIZE[current.chip.kind];
        const at = dropAt(event.clientX, event.clientY, size, { x: size.width / 2, y: size.height / 2 });
        if (at) place(current.chip, at);
      } else if (current.what === "resize") {
        // One PUT of the new size on release; the box keeps it at once, and goes back if it is refused.
        const { placement } = current;
        const size = resizeOf({ ...current, x: event.clientX, y: event.clientY });
        if (size.width !== placement.width || size.height !== placement.height) move.mutate({ id: placement.id, ...size }, done);
      } else {
        const { placement } = current;
        const at = dropAt(event.clientX, event.clientY, placement, current.grab);
        if (at && (at.page !== placement.page || at.x !== placement.x || at.y !== placement.y)) move.mutate({ id: placement.id, ...at }, done);
      }
    }
    const onCancel = () => setDrag(null);
    // A drag across a page's text does not select it.
    const noSelection = (event: Event) => event.preventDefault();
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
    window.addEventListener("pointercancel", onCancel);
    document.addEventListener("selectstart", noSelection);
    return () => {
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
      window.removeEventListener("pointercancel", onCancel);
      document.removeEventListener("selectstart", noSelection);
    };
    // The handlers read the drag from its ref, so they are set up once per drag.
  }, [dragging]);

  function startChipDrag(event: ReactPointerEvent, chip: TChip) {
    if (event.button !== 0) return;
    event.preventDefault();
    setDrag({ what: "chip", chip, startX: event.clientX, startY: event.clientY, x: event.clientX, y: event.clientY, moved: false });
  }

  function startBoxDrag(event: ReactPointerEvent<HTMLElement>, placement: TPlacement) {
    if (event.button !== 0) return;
    event.preventDefault();
    const box = event.currentTarget.getBoundingClientRect();
    const page = event.currentTarget.closest(PAGE_OVERLAY_SELECTOR)?.getBoundingClientRect();
    if (!page) return;
    setDrag({
      what: "box",
      placement,
      grab: { x: (event.clientX - box.left) / page.width, y: (event.clientY - box.top) / page.height },
      startX: event.clientX,
      startY: event.clientY,
      x: event.clientX,
      y: event.clientY,
      moved: false,
      grabPx: { x: event.clientX - box.left, y: event.clientY - box.top },
      boxPx: { width: box.width, height: box.height },
    });
  }

  // Arrow keys move a box, Shift+Alt+arrows resize it; the change shows at once, and is saved (one
  // PUT of what changed) once the keys rest, or at once when another box takes keys meanwhile.
  const keyTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [nudged, setNudged] = useState<({ id: number } & TPageBox) | null>(null);
  const nudgedRef = useRef(nudged);
  nudgedRef.current = nudged;
  function saveNudged() {
    clearTimeout(keyTimer.current);
    const next = nudgedRef.current;
    nudgedRef.current = null;
    setNudged(null);
    const placement = next && boxes.find((p) => p.id === next.id);
    if (!next || !placement) return;
    const changed = Object.fromEntries((["x", "y", "width", "height"] as const).filter((k) => next[k] !== placement[k]).map((k) => [k, next[k]]));
    if (Object.keys(changed).length > 0) move.mutate({ id: next.id, ...changed }, done);
  }
  function nudge(event: KeyboardEvent, placement: TPlacement) {
    const resizing = event.shiftKey && event.altKey;
    const step = resizing ? KEY_STEP : event.shiftKey ? KEY_STEP_LARGE : KEY_STEP;
    const delta = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[event.key];
    if (!delta || event.ctrlKey || event.metaKey || (event.altKey && !resizing)) return;
    event.preventDefault();
    if (nudgedRef.current && nudgedRef.current.id !== placement.id) saveNudged();
    const from: TPageBox = nudgedRef.current?.id === placement.id ? nudgedRef.current : placement;
    const next = resizing
      ? { id: placement.id, x: from.x, y: from.y, ...resized(from, from.width + delta[0]!, from.height + delta[1]!) }
      : { id: placement.id, width: from.width, height: from.height, x: tidy(clamp(from.x + delta[0]!, 0, 1 - from.width)), y: tidy(clamp(from.y + delta[1]!, 0, 1 - from.height)) };
    nudgedRef.current = next;
    setNudged(next);
    clearTimeout(keyTimer.current);
    keyTimer.current = setTimeout(saveNudged, 400);
  }
  useEffect(() => () => clearTimeout(keyTimer.current), []);

  function startResize(event: ReactPointerEvent<HTMLElement>, placement: TPlacement) {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    const page = event.currentTarget.closest(PAGE_OVERLAY_SELECTOR)?.getBoundingClientRect();
    if (!page) return;
    setDrag({ what: "resize", placement, startX: event.clientX, startY: event.clientY, x: event.clientX, y: event.clientY, moved: false, pagePx: { width: page.width, height: page.height } });
  }

  function overlay(page: number) {
    return boxes
      .filter((p) => p.page === page)
      .map((p) => {
        const label = labelOf(p);
        const beingResized = drag?.what === "resize" && drag.placement.id === p.id && drag.moved;
        const position: TPageBox = beingResized ? { ...p, ...resizeOf(drag) } : nudged?.id === p.id ? { ...p, ...nudged } : p;
        const beingDragged = drag?.what === "box" && drag.placement.id === p.id && drag.moved;
        const tone = p.kind === "signature" ? "border-blue-700 bg-blue-50/80 text-blue-900" : "border-emerald-700 bg-emerald-50/80 text-emerald-900";
        if (!editable) {
          return (
            <div key={p.id} className={`absolute overflow-hidden rounded-sm border-2 border-dashed px-1 text-xs ${tone}`} style={boxStyle(position)}>
              {label}
            </div>
          );
        }
        return (
          <div key={p.id} className={`pointer-events-auto absolute ${beingDragged ? "opacity-30" : ""}`} style={boxStyle(position)}>
            <button
              type="button"
              className={`h-full w-full cursor-move touch-none overflow-hidden rounded-sm border-2 border-dashed px-1 text-left text-xs leading-tight focus:outline-none focus:ring-2 focus:ring-blue-600 ${tone}`}
              aria-label={`${label}, on page ${page}. Drag it, or use the arrow keys, to move it.`}
              aria-describedby={boxHelpId}
              aria-keyshortcuts="Shift+Alt+ArrowRight Shift+Alt+ArrowLeft Shift+Alt+ArrowDown Shift+Alt+ArrowUp"
              onPointerDown={(event) => startBoxDrag(event, p)}
              onKeyDown={(event) => nudge(event, p)}
            >
              {label}
            </button>
            {/* The mouse's and touch's way to resize; the keyboard's is Shift+Alt+arrows on the box. */}
            <span
              aria-hidden="true"
              data-resize-handle=""
              title="Drag to resize"
              className="absolute -bottom-1.5 -right-1.5 h-4 w-4 cursor-nwse-resize touch-none rounded-sm border-2 border-white bg-slate-800 shadow"
              onPointerDown={(event) => startResize(event, p)}
            />
            <button
              type="button"
              className="absolute -right-2 -top-2 flex h-6 w-6 items-center justify-center rounded-full border border-slate-400 bg-white text-sm font-bold text-slate-800 shadow hover:bg-red-50 hover:text-red-800 focus:outline-none focus:ring-2 focus:ring-blue-600"
              aria-label={`Remove ${label} from page ${page}`}
              onClick={() => remove.mutate(p.id, done)}
            >
              ×
            </button>
          </div>
        );
      });
  }

  return (
    <div className="mt-3">
      {editable ? (
        <section aria-labelledby={paletteTitleId} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h3 id={paletteTitleId} className="text-base font-semibold text-slate-900">
            Boxes to place
          </h3>
          <p className="mt-1 text-sm text-slate-600">
            Drag a box onto a page where it belongs, or add it to the chosen page and move it with the arrow keys. Drag a box&apos;s bottom-right corner, or
            press Shift+Alt+arrow keys on it, to change its size. Every signatory needs a signature box before publishing.
          </p>
          <label htmlFor={pageFieldId} className="mt-3 block text-sm font-medium text-slate-800">
            Page for added boxes
          </label>
          <select
            id={pageFieldId}
            value={Math.min(targetPage, pdf.pages)}
            onChange={(event) => setTargetPage(Number(event.target.value))}
            className="mt-1 rounded-md border border-slate-300 px-2 py-1 text-sm"
          >
            {Array.from({ length: pdf.pages }, (_, i) => (
              <option key={i} value={i + 1}>
                Page {i + 1}
              </option>
            ))}
          </select>
          {chips.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600">No signatories or data fields yet: add a signatory to place their signature box.</p>
          ) : (
            <ul aria-label="Boxes to place" className="mt-3 flex flex-wrap gap-2">
              {chips.map((chip) => (
                <li key={chip.label} className="flex items-center overflow-hidden rounded-full border border-slate-300 bg-slate-50 text-sm">
                  <span
                    className="cursor-grab touch-none select-none px-3 py-1 text-slate-900"
                    title="Drag onto a page"
                    onPointerDown={(event) => startChipDrag(event, chip)}
                  >
                    {chip.label}
                  </span>
                  <button
                    type="button"
                    className="border-l border-slate-300 px-2 py-1 font-medium text-blue-700 hover:bg-blue-50 disabled:opacity-50"
                    aria-label={`Add ${chip.label} to page ${targetPage}`}
                    disabled={create.isPending}
                    onClick={() => addToPage(chip)}
                  >
                    Add to page {targetPage}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {problem ? (
            <p role="alert" className="mt-3 text-sm text-red-800">
              {problem}
            </p>
          ) : null}
        </section>
      ) : null}
      {placements.isError ? (
        <p role="alert" className="mt-3 text-sm text-red-800">
          Could not load the boxes on the PDF: {placements.error.message}
        </p>
      ) : null}
      {/* A page as wide as a printed one on a desktop; the full width on a phone. */}
      <div className="mt-3 max-w-3xl">
        <PdfPages src={localHref(pdf.href)} pageCount={pdf.pages} overlay={overlay} downloadHref={localHref(pdf.href)} />
      </div>
      {editable ? (
        <p id={boxHelpId} hidden>
          Shift+Alt+arrow keys change its size: right and down make it larger, left and up smaller. Or drag its bottom-right corner.
        </p>
      ) : null}
      {drag?.moved && drag.what !== "resize" ? <DragGhost drag={drag} label={drag.what === "chip" ? drag.chip.label : labelOf(drag.placement)} /> : null}
    </div>
  );
}

/** What follows the pointer during a drag (never the drop's target: no pointer events). */
function DragGhost({ drag, label }: { drag: TDrag; label: string }) {
  const style =
    drag.what === "box"
      ? { left: drag.x - drag.grabPx.x, top: drag.y - drag.grabPx.y, width: drag.boxPx.width, height: drag.boxPx.height }
      : { left: drag.x, top: drag.y, transform: "translate(-50%, -50%)" };
  return (
    <div aria-hidden="true" className="pointer-events-none fixed z-50 overflow-hidden rounded-sm border-2 border-dashed border-blue-700 bg-blue-50/90 px-2 py-1 text-xs text-blue-900 shadow-lg" style={style}>
      {label}
    </div>
  );
}
