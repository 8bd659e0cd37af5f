// Boxes placed on the pages of a contract's uploaded PDF (docs/documents.md "Uploaded PDF"): what
// may be placed, where, and for whom. Pure: no I/O.
import { hasValue } from "./data-field";

/** What a box shows in the sealed copy: a signatory's signature mark, their name, the date they signed, or a data field's value. */
export const PLACEMENT_KINDS = ["signature", "name", "date_signed", "data_field"] as const;
export type TPlacementKind = (typeof PLACEMENT_KINDS)[number];

/** A kind in words, as the contract page and the certificate name a box. */
export const PLACEMENT_KIND_WORDS: Record<TPlacementKind, string> = { signature: "Signature", name: "Name", date_signed: "Date signed", data_field: "Data field" };

/** The kinds that belong to a signatory (the others to a data field). */
export const SIGNER_KINDS: readonly TPlacementKind[] = ["signature", "name", "date_signed"];

/** The smallest side of a box, as a share of the page's side (a box must hold a legible stamp). */
export const MIN_BOX_SHARE = 0.01;

/** The most boxes one contract may hold. */
export const MAX_PLACEMENTS = 500;

/** Float rounding a sum of shares may carry (0.7 + 0.3) and still lie on the page. */
const EPSILON = 1e-9;

export interface TBox {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where the box lies, for a person: "page 2". */
export const pageWords = (box: Pick<TBox, "page">) => `page ${box.page}`;

/**
 * What is wrong with where `box` lies on a PDF of `pages` pages, by request field, as
 * `parameter_problems` name them; empty when it lies on a page. An edge overrun is the size's
 * problem, or the position's when the request (`given`: the fields it sent; all, when left out)
 * moved the box without resizing it.
 */
export function boxProblems(box: TBox, pages: number, given?: ReadonlySet<string>): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  if (box.page > pages) problems.page = [`is ${box.page}, but the PDF has ${pages} page${pages === 1 ? "" : "s"}`];
  const blamed = (size: string, position: string) => (given !== undefined && !given.has(size) && given.has(position) ? position : size);
  const right = box.x + box.width;
  const bottom = box.y + box.height;
  if (right > 1 + EPSILON) problems[blamed("width", "x")] = [`runs off the page's right edge: x + width is ${beyondOne(right)}, at most 1`];
  if (bottom > 1 + EPSILON) problems[blamed("height", "y")] = [`runs off the page's bottom edge: y + height is ${beyondOne(bottom)}, at most 1`];
  return problems;
}

/** A sum past 1 in 6 decimals, or as many more as show it past 1 (1.0000001, never "1, at most 1"). */
const beyondOne = (n: number) => (Math.round(n * 1e6) / 1e6 > 1 ? Math.round(n * 1e6) / 1e6 : Math.round(n * 1e9) / 1e9);

export interface TPlacementOwner {
  kind: TPlacementKind;
  participantId: number | null;
  dataFieldId: number | null;
}

/**
 * What is wrong with whom the box is for: a signer's kinds name a signatory of the contract
 * (`signatories`: their ids), a data field's kind one of its data fields; never both.
 */
export function ownerProblems(owner: TPlacementOwner, signatories: ReadonlyMap<number, string>, participants: ReadonlySet<number>, dataFields: ReadonlySet<number>): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  if (SIGNER_KINDS.includes(owner.kind)) {
    if (owner.dataFieldId !== null) problems.data_field_id = [`must be left out for a ${owner.kind} box`];
    if (owner.participantId === null) problems.participant_id = [`is required for a ${owner.kind} box: the signatory it belongs to`];
    else if (!participants.has(owner.participantId)) problems.participant_id = [`names no participant of the contract (${owner.participantId})`];
    else if (!signatories.has(owner.participantId)) problems.participant_id = [`names participant ${owner.participantId}, who does not sign the contract`];
  } else {
    if (owner.participantId !== null) problems.participant_id = ["must be left out for a data_field box"];
    if (owner.dataFieldId === null) problems.data_field_id = ["is required for a data_field box: the data field whose value it shows"];
    else if (!dataFields.has(owner.dataFieldId)) problems.data_field_id = [`names no data field of the contract (${owner.dataFieldId})`];
  }
  return problems;
}

export interface TPlacedBox extends TPlacementOwner {
  page: number;
}

export interface TPdfSigner {
  id: number;
  name: string;
  party: string;
  signatory: boolean;
}

/**
 * What stands between a draft whose document is an uploaded PDF and publishing, as the readiness
 * list names it: a signatory without a signature box, a box of someone who no longer signs, a
 * data field's box with no value.
 */
export function uploadedPdfProblems(
  participants: readonly TPdfSigner[],
  boxes: readonly TPlacedBox[],
  dataFields: ReadonlyMap<number, { name: string; value: string }>,
): { path: string; message: string; partyId: null; participantId: number | null }[] {
  const problems: { path: string; message: string; partyId: null; participantId: number | null }[] = [];
  const signed = new Set(boxes.filter((b) => b.kind === "signature").map((b) => b.participantId));
  for (const p of participants) {
    if (p.signatory && !signed.has(p.id)) {
      problems.push({ path: "placements", message: `${p.name} (${p.party}) signs but has no signature box on the PDF.`, partyId: null, participantId: p.id });
    }
  }
  const byId = new Map(participants.map((p) => [p.id, p]));
  const reported = new Set<string>();
  for (const box of boxes) {
    const person = box.participantId === null ? undefined : byId.get(box.participantId);
    const field = box.dataFieldId === null ? undefined : dataFields.get(box.dataFieldId);
    const message =
      person && !person.signatory ? `A ${box.kind.replace("_", " ")} box on ${pageWords(box)} belongs to ${person.name}, who does not sign.`
      : field && !hasValue(field.value) ? `The data field ${field.name} shown on ${pageWords(box)} has no value.`
      : null;
    if (message && !reported.has(message)) {
      reported.add(message);
      problems.push({ path: "placements", message, partyId: null, participantId: person?.id ?? null });
    }
  }
  return problems;
}
