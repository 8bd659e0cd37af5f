// A PDF page as a reader shows it, from its boxes and its turn: the one reading the upload's check
// (lib/domain/uploaded-pdf.ts) and the stamping of the sealed copy (lib/pdf/stamp-placements.ts)
// share, so a page accepted at upload is the page the boxes land on. Pure: no I/O.

export type TRect = { x: number; y: number; width: number; height: number };

/** A page's boxes and /Rotate as the PDF states them (inherited ones resolved). */
export interface TPageBoxes {
  media: TRect;
  crop: TRect;
  /** /Rotate in degrees, as written. */
  angle: number;
}

/** The page as a reader shows it: its visible area in user space, the turn, and the size as shown. */
export interface TPageFrame {
  /** The visible area (CropBox ∩ MediaBox) in user space, before the turn. */
  x0: number;
  y0: number;
  width: number;
  height: number;
  /** /Rotate, clockwise, normalised to 0, 90, 180 or 270. */
  rotation: 0 | 90 | 180 | 270;
  /** Width and height as shown (swapped when turned a quarter). */
  shownWidth: number;
  shownHeight: number;
}

const normal = (r: TRect): TRect => ({ x: Math.min(r.x, r.x + r.width), y: Math.min(r.y, r.y + r.height), width: Math.abs(r.width), height: Math.abs(r.height) });

/** Whether readers agree on the turn: PDF allows multiples of 90° only (a reader shows another angle as 0°). */
export const isQuarterTurn = (angle: number) => Number.isInteger(angle) && angle % 90 === 0;

export function pageFrameOf({ media: mediaBox, crop: cropBox, angle }: TPageBoxes): TPageFrame {
  const media = normal(mediaBox);
  const crop = normal(cropBox);
  // A reader shows the CropBox clipped to the MediaBox; one that misses it entirely counts as absent.
  const x0 = Math.max(media.x, crop.x);
  const y0 = Math.max(media.y, crop.y);
  const x1 = Math.min(media.x + media.width, crop.x + crop.width);
  const y1 = Math.min(media.y + media.height, crop.y + crop.height);
  const visible = x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : media;
  const turn = ((Math.round(angle / 90) % 4) + 4) % 4;
  const rotation = (turn * 90) as TPageFrame["rotation"];
  const quarter = rotation === 90 || rotation === 270;
  return {
    x0: visible.x,
    y0: visible.y,
    width: visible.width,
    height: visible.height,
    rotation,
    shownWidth: quarter ? visible.height : visible.width,
    shownHeight: quarter ? visible.width : visible.height,
  };
}
