// The oracle's search (`q`), written apart from the product's SQL (lib/api/json/contract-search.ts)
// from the rules in docs/api.md "Finding contracts": a contract matches when every searched word is
// one of its words, or (one term of 3+ letters, digits and hyphens) the whole text is in any of its
// texts, any letter case. Words
// here: runs of letters and digits (PostgreSQL's parser keeps e-mail addresses and hyphenated words
// whole too; tests give queries both read alike). Phrases, `or` and `-word` are not modelled.
import type { Tx } from "@/lib/db";
import type { TContractSearch } from "@/lib/schemas";

const WINDOW = 160;
const BEFORE = 60;
const SHOWN = 5;

type TSource = { field: TContractSearch["matches"][number]["field"]; label: string | null; text: string };

const wordsOf = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const escape = (text: string) => text.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");

/** The marked terms as one JavaScript expression: the whole text anywhere, each term's words in a row. */
function markerOf(q: string): RegExp | null {
  if (/["]|(^|\s)-|\bor\b/i.test(q)) throw new Error(`the oracle does not model ${JSON.stringify(q)}`);
  // Each space-separated term: its runs of letters and digits, in a row with anything else between.
  const words = q.split(/\s+/).map((w) => w.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).filter((parts) => parts.length > 0);
  const terms = [...(q.length >= 3 ? [{ n: q.length, re: escape(q) }] : []), ...words.map((parts) => ({ n: parts.join(" ").length, re: `(?<![\\p{L}\\p{N}_])${parts.join("[^\\p{L}\\p{N}]+")}(?![\\p{L}\\p{N}_])` }))];
  terms.sort((a, b) => b.n - a.n);
  return terms.length ? new RegExp([...new Set(terms.map((t) => t.re))].join("|"), "giu") : null;
}

/** `text` around its first mark, in plain and marked pieces. */
function highlightOf(text: string, marker: RegExp): string[] {
  marker.lastIndex = 0;
  const first = marker.exec(text)?.index ?? 0;
  // The product splits its marks on U+0001, so that character shows as a space.
  let shown = text.replaceAll("\u0001", " ");
  if ([...text].length > WINDOW) {
    const chars = [...text];
    const start = Math.max(0, first - BEFORE);
    shown = (start > 0 ? "…" : "") + chars.slice(start, start + WINDOW).join("") + (start + WINDOW < chars.length ? "…" : "");
  }
  const pieces: string[] = [];
  let at = 0;
  marker.lastIndex = 0;
  for (const m of shown.matchAll(marker)) {
    pieces.push(shown.slice(at, m.index), m[0]);
    at = m.index + m[0].length;
  }
  pieces.push(shown.slice(at));
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
      dataFields: { select: { name: true, value: true }, orderBy: { id: "asc" } },
      parties: { select: { name: true, participants: { select: { name: true, email: true }, orderBy: { id: "asc" } } }, orderBy: { id: "asc" } },
    },
  });
  const marker = markerOf(q);
  // Inside words only for one term of 3+ letters, digits and hyphens.
  const insideWords = /^[\p{L}\p{N}-]{3,}$/u.test(q);
  const found = new Map<number, TContractSearch>();
  for (const c of contracts) {
    const people = c.parties.flatMap((p) => p.participants);
    const sections = ((c.body as { sections?: { heading: string; text: string }[] }).sections ?? []);
    const sources: TSource[] = [
      { field: "name", label: null, text: c.name },
      ...c.parties.map((p) => ({ field: "party" as const, label: null, text: p.name })),
      ...people.map((x) => ({ field: "participant_name" as const, label: null, text: x.name })),
      ...people.map((x) => ({ field: "participant_email" as const, label: null, text: x.email })),
      ...c.dataFields.map((f) => ({ field: "data_field" as const, label: f.name, text: f.value })),
      ...sections.flatMap((s) => [
        { field: "heading" as const, label: null, text: s.heading },
        { field: "text" as const, label: s.heading || null, text: s.text },
      ]),
    ];
    const all = sources.map((s) => s.text).join("\n");
    const words = new Set(wordsOf(all));
    const matches = (insideWords && all.toLowerCase().includes(q.toLowerCase())) || wordsOf(q).every((w) => words.has(w));
    if (!matches || wordsOf(q).length === 0) continue;
    const marked = marker === null ? [] : sources.filter((s) => s.text !== "" && (marker.lastIndex = 0, marker.test(s.text)));
    found.set(c.id, { matches: marked.slice(0, SHOWN).map((s) => ({ field: s.field, label: s.label, highlight: highlightOf(s.text, marker!) })) });
  }
  return found;
}
