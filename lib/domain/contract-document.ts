// The contract as a document (docs/documents.md): a template's body, its placeholders, and the
// contract rendered to a structure that the contract page, the signing page and the PDF all show,
// so what is signed is laid out from one place. Pure: no I/O.
import { describePeriod, parsePeriod } from "./calendar";
import type { TTerm } from "./lifecycle";
import { hasValue } from "./data-field";

/** A body: sections of plain text; a blank line separates paragraphs. */
export interface TBody {
  sections: TBodySection[];
}

export interface TBodySection {
  heading: string;
  text: string;
}

export const EMPTY_BODY: TBody = { sections: [] };

/** What GET /v1/contracts/{id}/files lists (Oneflow's types). */
export const CONTRACT_FILE_TYPES = ["contract", "verification", "attachment"] as const;
export type TContractFileType = (typeof CONTRACT_FILE_TYPES)[number];

/** The most a body may hold, in UTF-8 bytes of its JSON (400 `body` past it). */
export const MAX_BODY_BYTES = 200 * 1024;
export const MAX_BODY_SECTIONS = 200;
export const MAX_HEADING_LENGTH = 200;

/**
 * `{{field.<custom_id>}}` a data field's value, `{{parties}}` the parties, `{{signatories}}` the
 * signatories, `{{term.<setting>}}` a duration setting in words (TERM_PLACEHOLDERS). Spaces inside
 * the braces are allowed. Anything else in double braces is an error.
 */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The term's placeholders (docs/lifecycle.md "In the text"): `{{term.start_date}}` … */
export const TERM_PLACEHOLDERS = ["start_date", "end_date", "duration", "renewal_period", "notice_period"] as const;
export type TTermPlaceholder = (typeof TERM_PLACEHOLDERS)[number];

export type TPlaceholder =
  | { kind: "field"; customId: string }
  | { kind: "parties" }
  | { kind: "signatories" }
  | { kind: "term"; setting: TTermPlaceholder }
  | { kind: "unknown"; text: string };

export function parsePlaceholder(inner: string): TPlaceholder {
  if (inner === "parties") return { kind: "parties" };
  if (inner.startsWith("term.") && (TERM_PLACEHOLDERS as readonly string[]).includes(inner.slice("term.".length))) {
    return { kind: "term", setting: inner.slice("term.".length) as TTermPlaceholder };
  }
  if (inner === "signatories") return { kind: "signatories" };
  if (inner.startsWith("field.") && inner.length > "field.".length) return { kind: "field", customId: inner.slice("field.".length) };
  return { kind: "unknown", text: inner };
}

type TToken = { text: string } | { placeholder: TPlaceholder; raw: string };

/** A text in literal runs and placeholders, in order. */
export function tokenize(text: string): TToken[] {
  const tokens: TToken[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match.index > last) tokens.push({ text: text.slice(last, match.index) });
    tokens.push({ placeholder: parsePlaceholder(match[1]!), raw: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) tokens.push({ text: text.slice(last) });
  return tokens;
}

/** The custom ids of the data fields a body names, in order of first use. */
export function fieldsNamed(body: TBody): string[] {
  const seen = new Set<string>();
  for (const section of body.sections) {
    for (const token of tokenize(section.text)) {
      if ("placeholder" in token && token.placeholder.kind === "field") seen.add(token.placeholder.customId);
    }
  }
  return [...seen];
}

/**
 * What is wrong with a body for a template (or contract: `owner`) with these data fields' custom
 * ids, by path (`body.sections.2.text`), as `parameter_problems` name them; empty when nothing is.
 */
export function bodyProblems(body: TBody, customIds: readonly string[], owner: "template" | "contract" = "template"): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const add = (path: string, message: string) => (problems[path] ??= []).push(message);
  const bytes = new TextEncoder().encode(JSON.stringify(body)).length;
  if (bytes > MAX_BODY_BYTES) add("body", `is ${bytes} bytes; at most ${MAX_BODY_BYTES} bytes (200 KB) are accepted`);
  if (body.sections.length > MAX_BODY_SECTIONS) add("body.sections", `has ${body.sections.length} sections; at most ${MAX_BODY_SECTIONS} are accepted`);
  const known = new Set(customIds.filter((id) => id !== ""));
  body.sections.forEach((section, index) => {
    if (section.heading.length > MAX_HEADING_LENGTH) add(`body.sections.${index}.heading`, `must be at most ${MAX_HEADING_LENGTH} characters`);
    if (/\{\{|\}\}/.test(section.heading)) add(`body.sections.${index}.heading`, "must not hold placeholders");
    for (const token of tokenize(section.text)) {
      if (!("placeholder" in token)) continue;
      const p = token.placeholder;
      if (p.kind === "unknown") add(`body.sections.${index}.text`, `${token.raw} is not a placeholder; use {{field.<custom_id>}}, {{parties}}, {{signatories}} or {{term.<setting>}} (${TERM_PLACEHOLDERS.join(", ")})`);
      else if (p.kind === "field" && !known.has(p.customId)) add(`body.sections.${index}.text`, `${token.raw} names no data field of the ${owner} (custom_id "${p.customId}")`);
    }
  });
  return problems;
}

// --- The term in words ----------------------------------------------------------------------------

const period = (text: string | null) => {
  const parsed = text === null ? null : parsePeriod(text);
  return parsed ? describePeriod(parsed) : null;
};

/** A duration setting as the text and the sealed copy state it: "1 year", "on signing", "2027-06-30". */
export function termWords(term: TTerm, setting: TTermPlaceholder): string {
  const initial = term.end_date ?? (term.initial_duration ? `${period(term.initial_duration)} after the start` : null);
  switch (setting) {
    case "start_date":
      return term.start_date ?? "on signing";
    case "end_date":
      if (term.duration === "single_period") return initial ?? "not set";
      if (term.duration === "recurring_with_initial") return `${initial ?? "not set"} (the initial period), then renewed until notice is given`;
      return term.duration === "recurring" ? "none: renewed until notice is given" : "none";
    case "renewal_period":
      return period(term.renewal_period) ?? "none";
    case "notice_period":
      if (term.duration !== "recurring" && term.duration !== "recurring_with_initial") return "none";
      return period(term.notice_period) ?? "none: by the end of a period";
    case "duration":
      switch (term.duration) {
        case "none":
          return "no fixed duration";
        case "single_period":
          return term.end_date ? `a single period, until ${term.end_date}` : `a single period of ${period(term.initial_duration) ?? "(not set)"}`;
        case "recurring":
          return `renewed every ${period(term.renewal_period) ?? "(not set)"}`;
        case "recurring_with_initial":
          return `${term.end_date ? `an initial period until ${term.end_date}` : `an initial period of ${period(term.initial_duration) ?? "(not set)"}`}, then renewed every ${period(term.renewal_period) ?? "(not set)"}`;
      }
  }
}

/** The term as rows of the contract's "Term" section and its certificate. */
export function termRows(term: TTerm): { label: string; value: string }[] {
  return [
    { label: "Duration", value: termWords(term, "duration") },
    { label: "Start", value: termWords(term, "start_date") },
    { label: "End", value: termWords(term, "end_date") },
    { label: "Renewal period", value: termWords(term, "renewal_period") },
    { label: "Notice period", value: termWords(term, "notice_period") },
  ];
}

// --- Rendering ----------------------------------------------------------------------------------

export interface TDocField {
  customId: string;
  name: string;
  value: string;
}

export interface TDocParticipant {
  name: string;
  title: string;
  email: string;
  signatory: boolean;
  signState: string;
  signStateUpdatedAt: Date | string | null;
}

export interface TDocParty {
  name: string;
  type: "company" | "individual";
  identificationNumber: string;
  countryCode: string;
  myParty: boolean;
  participants: TDocParticipant[];
}

export interface TDocInput {
  name: string;
  body: TBody;
  dataFields: readonly TDocField[];
  /** The owner's side first, as the contract lists them. */
  parties: readonly TDocParty[];
  /** The duration settings; absent (a template's preview): `{{term.…}}` shows its name in brackets. */
  term?: TTerm | undefined;
}

/** A run of text in a paragraph: literal, or a data field's value (`missing` when it has none). */
export type TSegment = { text: string } | { field: string; name: string; text: string; missing: boolean };

export type TBlock = { kind: "paragraph"; segments: TSegment[] } | { kind: "list"; items: TSegment[][] };

export interface TDocSection {
  heading: string;
  blocks: TBlock[];
}

export interface TDocSignatory {
  name: string;
  title: string;
  party: string;
  signState: string;
  signedAt: string | null;
}

export interface TDocument {
  title: string;
  sections: TDocSection[];
  parties: { name: string; details: string }[];
  signatories: TDocSignatory[];
  /** The data fields the text names that have no value, in order of first use. */
  missingFields: { customId: string; name: string }[];
  /** The duration settings in words (termRows); empty when the input had none. */
  term: { label: string; value: string }[];
}

/** What marks an empty data field in the text: its name in brackets. */
export const missingFieldText = (name: string) => `[${name}]`;

function partyDetails(party: TDocParty): string {
  const parts = [party.type === "company" ? "company" : "individual"];
  if (party.identificationNumber) parts.push(`${party.type === "company" ? "org. no." : "id no."} ${party.identificationNumber}`);
  if (party.countryCode) parts.push(party.countryCode);
  return parts.join(", ");
}

const joinNames = (names: string[]) => (names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);

/** The contract laid out as it will be signed. */
export function renderDocument(input: TDocInput): TDocument {
  const parties = input.parties.map((party) => ({ name: party.name, details: partyDetails(party) }));
  const signatories: TDocSignatory[] = input.parties.flatMap((party) =>
    party.participants
      .filter((p) => p.signatory)
      .map((p) => ({
        name: p.name,
        title: p.title,
        party: party.name,
        signState: p.signState,
        signedAt: p.signState === "signed" && p.signStateUpdatedAt ? new Date(p.signStateUpdatedAt).toISOString() : null,
      })),
  );
  const text = layoutText(input.body, input.dataFields, parties, signatories, input.term);
  return { title: input.name, sections: text.sections, parties, signatories, missingFields: text.missingFields, term: input.term ? termRows(input.term) : [] };
}

type TTextParty = TDocument["parties"][number];
type TTextSignatory = Pick<TDocSignatory, "name" | "title" | "party">;

/**
 * The data fields a placeholder can name, by custom id: where two share one, the first (loaded by id:
 * the lowest, which `PUT …/data_fields/c::{custom_id}` writes too). The document and readiness read
 * a placeholder's field by this one rule.
 */
function fieldsByCustomId<F extends Pick<TDocField, "customId">>(dataFields: readonly F[]): Map<string, F> {
  const byId = new Map<string, F>();
  for (const field of dataFields) if (field.customId !== "" && !byId.has(field.customId)) byId.set(field.customId, field);
  return byId;
}

/**
 * A body laid out with these data fields, parties and signatories (as renderDocument lists them):
 * the document's sections, and the fields it needs that have no value. A draft's text editor
 * previews with it, from the parties and signatories its document already lists.
 */
export function layoutText(
  body: TBody,
  dataFields: readonly TDocField[],
  parties: readonly TTextParty[],
  signatories: readonly TTextSignatory[],
  term?: TTerm,
): Pick<TDocument, "sections" | "missingFields"> {
  const byId = fieldsByCustomId(dataFields);
  const partyLine = (p: TTextParty) => `${p.name} (${p.details})`;
  const signatoryLine = (s: TTextSignatory) => `${s.name}${s.title ? `, ${s.title}` : ""} for ${s.party}`;
  const missing = new Map<string, string>();

  const segmentsOf = (text: string): TSegment[] =>
    tokenize(text).map((token): TSegment => {
      if ("text" in token) return { text: token.text };
      const p = token.placeholder;
      if (p.kind === "parties") return { text: joinNames(parties.map((x) => x.name)) };
      if (p.kind === "signatories") return { text: joinNames(signatories.map((x) => x.name)) };
      if (p.kind === "unknown") return { text: token.raw };
      if (p.kind === "term") return { text: term ? termWords(term, p.setting) : `[term.${p.setting}]` };
      const field = byId.get(p.customId);
      const name = field?.name ?? p.customId;
      if (field === undefined || !hasValue(field.value)) {
        if (!missing.has(p.customId)) missing.set(p.customId, name);
        return { field: p.customId, name, text: missingFieldText(name), missing: true };
      }
      return { field: p.customId, name, text: field.value, missing: false };
    });

  const sections = body.sections.map((section): TDocSection => {
    const blocks: TBlock[] = [];
    for (const paragraph of section.text.split(/\r?\n\s*\r?\n/)) {
      const trimmed = paragraph.trim();
      if (trimmed === "") continue;
      // A paragraph that is only {{parties}} or {{signatories}} lists them, one a line.
      const alone = trimmed.match(/^\{\{\s*(parties|signatories)\s*\}\}$/);
      if (alone) {
        const items = alone[1] === "parties" ? parties.map(partyLine) : signatories.map(signatoryLine);
        blocks.push({ kind: "list", items: items.map((text) => [{ text }]) });
        continue;
      }
      blocks.push({ kind: "paragraph", segments: segmentsOf(trimmed.replace(/\s*\r?\n\s*/g, " ")) });
    }
    return { heading: section.heading, blocks };
  });
  return { sections, missingFields: [...missing].map(([customId, name]) => ({ customId, name })) };
}

/** A block's text, fields filled in (or marked): what a screen reader or pdftotext reads. */
export const segmentsText = (segments: readonly TSegment[]) => segments.map((s) => s.text).join("");

/**
 * The readiness sentence for a data field the text needs a value for. The API's (`message`) adds
 * the field's custom id, which is how clients name it; the contract page's names it as staff know it,
 * by its name alone.
 */
export const missingValueSentence = (field: { name: string; customId?: string | undefined }) =>
  `The text needs a value for the data field ${field.name}${field.customId === undefined ? "" : ` (${field.customId})`}.`;

/**
 * Publish readiness of the text: one problem per data field the text names that has no value
 * (path `data_fields.<custom_id>`, and the field as `missingDataField`), in the shape of
 * lib/domain/publish-readiness.ts.
 */
export function textProblems(
  body: TBody,
  dataFields: readonly TDocField[],
): { path: string; message: string; partyId: null; participantId: null; missingDataField: { customId: string; name: string } }[] {
  const byId = fieldsByCustomId(dataFields);
  return fieldsNamed(body)
    .filter((customId) => !hasValue(byId.get(customId)?.value ?? ""))
    .map((customId) => {
      const field = { customId, name: byId.get(customId)?.name ?? customId };
      return { path: `data_fields.${customId}`, message: missingValueSentence(field), partyId: null, participantId: null, missingDataField: field };
    });
}
