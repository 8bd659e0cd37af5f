// The oracle's search (`q`), written apart from the product's SQL (lib/api/json/contract-search.ts)
// from the rules in docs/api.md "Finding contracts": a contract matches when every searched word is
// one of its words, or (one term of 3+ letters, digits and hyphens) the whole text is in any of its
// texts, any letter case (each character lower-cased on its own, as the database's lower() does:
// `İ` is `i`). Words here: runs of letters and digits (PostgreSQL's parser keeps e-mail addresses
// and hyphenated words whole too; tests give queries both read alike). Phrases, `or` and `-word`
// are not modelled.
import type { Tx } from "@/lib/db";
import { tokenize } from "@/lib/domain/contract-document";
import { hasValue } from "@/lib/domain/data-field";
import type { TContractSearch } from "@/lib/schemas";

const WINDOW = 160;
const BEFORE = 60;
const SHOWN = 5;

type TSource = { field: TContractSearch["matches"][number]["field"]; label: string | null; text: string };

/** Each character lower-cased on its own: the first character of its lower case (`İ`: `i`). */
const lower = (text: string) => [...text].map((c) => String.fromCodePoint(c.toLowerCase().codePointAt(0)!)).join("");
const wordsOf = (text: string) => lower(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const escape = (text: string) => text.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");

/**
 * A section's text as searched: a data field's placeholder (the renderer's tokens) read as the
 * value of the first field of its custom id, if it has one; any other placeholder as `…`.
 */
function textSearched(text: string, fields: { customId: string; value: string }[]): string {
  const valueOf = (customId: string) => fields.find((f) => f.customId === customId)?.value ?? "";
  return tokenize(text)
    .map((token) => ("text" in token ? token.text : token.placeholder.kind === "field" && hasValue(valueOf(token.placeholder.customId)) ? valueOf(token.placeholder.customId) : "…"))
    .join("");
}

/** `q` is also looked for inside words: one term of 3+ letters, digits and hyphens, not a `-word`. */
const searchesInsideWords = (q: string) => /^[\p{L}\p{N}][\p{L}\p{N}-]{2,}$/u.test(q);

/**
 * The marked terms as one JavaScript expression: the whole search (inside words: as typed; else all
 * its words in a row), and each term's words in a row, as whole words (`_` ends a word).
 */
function markerOf(q: string): RegExp | null {
  if (/["]|(^|\s)-|\bor\b/i.test(q)) throw new Error(`the oracle does not model ${JSON.stringify(q)}`);
  const inRow = (parts: string[]) => `(?<![\\p{L}\\p{N}])${parts.map(escape).join("[^\\p{L}\\p{N}]+")}(?![\\p{L}\\p{N}])`;
  // Each space-separated term: its runs of letters and digits, in a row with anything else between.
  const words = lower(q).split(/\s+/).map((w) => w.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).filter((parts) => parts.length > 0);
  const whole = searchesInsideWords(q) ? escape(lower(q)) : words.length > 0 ? inRow(words.flat()) : null;
  const terms = [...(whole === null ? [] : [{ n: Infinity, re: whole }]), ...words.map((parts) => ({ n: parts.join(" ").length, re: inRow(parts) }))];
  terms.sort((a, b) => b.n - a.n);
  return terms.length ? new RegExp([...new Set(terms.map((t) => t.re))].join("|"), "giu") : null;
}

/**
 * `text` around its first mark, in plain and marked pieces: the marks are the whole text's matches
 * (in lower case, character by character, so at the same places) that lie inside the window (one
 * the cut goes through is not marked).
 */
function highlightOf(text: string, marker: RegExp): string[] {
  // The product splits its marks on U+0001, so that character shows as a space.
  const chars = [...text.replaceAll("\u0001", " ")];
  const shown = chars.join("");
  marker.lastIndex = 0;
  // Matches by character (not UTF-16 unit) positions.
  const at = (index: number) => [...lower(shown).slice(0, index)].length;
  const matches = [...lower(shown).matchAll(marker)].map((m) => ({ start: at(m.index), end: at(m.index) + [...m[0]].length }));
  const first = matches[0]?.start ?? 0;
  const start = chars.length > WINDOW ? Math.max(0, first - BEFORE) : 0;
  const end = chars.length > WINDOW ? Math.min(chars.length, start + WINDOW) : chars.length;
  const pieces: string[] = [];
  let from = start;
  for (const m of matches.filter((x) => x.start >= start && x.end <= end)) {
    pieces.push(chars.slice(from, m.start).join(""), chars.slice(m.start, m.end).join(""));
    from = m.end;
  }
  pieces.push(chars.slice(from, end).join(""));
  pieces[0] = (start > 0 ? "…" : "") + pieces[0];
  pieces[pieces.length - 1] += end < chars.length ? "…" : "";
  return pieces;
}

/** Each contract of `ids` that matches `q`, with its `_search`. */
export async function searchContracts(db: Tx, ids: number[], q: string): Promise<Map<number, TContractSearch>> {
  const contracts = await db.contract.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      name: true,
      body: true,
      dataFields: { select: { name: true, value: true, customId: true }, orderBy: { id: "asc" } },
      parties: { select: { name: true, identificationNumber: true, participants: { select: { name: true, email: true }, orderBy: { id: "asc" } } }, orderBy: { id: "asc" } },
    },
  });
  const marker = markerOf(q);
  const insideWords = searchesInsideWords(q);
  const found = new Map<number, TContractSearch>();
  for (const c of contracts) {
    const people = c.parties.flatMap((p) => p.participants);
    const sections = ((c.body as { sections?: { heading: string; text: string }[] }).sections ?? []);
    const sources: TSource[] = [
      { field: "name", label: null, text: c.name },
      ...c.parties.flatMap((p) => [
        { field: "party" as const, label: null, text: p.name },
        { field: "party_identification_number" as const, label: null, text: p.identificationNumber },
      ]),
      ...people.map((x) => ({ field: "participant_name" as const, label: null, text: x.name })),
      ...people.map((x) => ({ field: "participant_email" as const, label: null, text: x.email })),
      ...c.dataFields.map((f) => ({ field: "data_field" as const, label: f.name, text: f.value })),
      ...sections.flatMap((s) => [
        { field: "heading" as const, label: null, text: s.heading },
        { field: "text" as const, label: s.heading || null, text: textSearched(s.text, c.dataFields.filter((f) => f.customId !== "")) },
      ]),
    ];
    const all = sources.map((s) => s.text).join("\n");
    const words = new Set(wordsOf(all));
    const matches = (insideWords && lower(all).includes(lower(q))) || wordsOf(q).every((w) => words.has(w));
    if (!matches || wordsOf(q).length === 0) continue;
    const marked = marker === null ? [] : sources.filter((s) => s.text !== "" && (marker.lastIndex = 0, marker.test(lower(s.text))));
    found.set(c.id, { matches: marked.slice(0, SHOWN).map((s) => ({ field: s.field, label: s.label, highlight: highlightOf(s.text, marker!) })) });
  }
  return found;
}
