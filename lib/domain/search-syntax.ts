// How PostgreSQL's `websearch_to_tsquery` reads a search (`q`), as far as the app needs it: its
// terms, which are negated, and how many `-` operators it holds. The search itself is PostgreSQL's
// (lib/api/json/contract-search.ts); this reading decides only what the highlights mark and what
// the request schema refuses, so both agree with it. Pure.

/**
 * `q` as tokens: quoted phrases (to the next quote, or the end); `-` where a term would start,
 * each negating the term after it, however many signs and spaces lie between (`--sales`,
 * `- - sales`: `sales` again; `a - b`, `(-b)`, `a<->b`: not `b`); the separators `!&|()<`, passed
 * over; and runs from any other character up to a space, a quote or a separator, a `-` inside a run
 * being part of it (`PO-4411`, `lease--`, an address: one run of several words).
 */
const SEARCH_TOKENS = /"([^"]*)"?|(-)|([^\s"!&|()<-][^\s"!&|()<]*)|[!&|()<]/gu;

export interface TSearchTerm {
  /** The phrase or the run, as written. */
  text: string;
  /** After an odd number of `-`. */
  negated: boolean;
  quoted: boolean;
}

/** `q`'s terms in order, and the `-` operators it holds (PostgreSQL keeps at most 32 operators pending). */
export function searchTerms(q: string): { terms: TSearchTerm[]; negations: number } {
  const terms: TSearchTerm[] = [];
  let pending = 0;
  let negations = 0;
  for (const [, phrase, minus, run] of q.matchAll(SEARCH_TOKENS)) {
    if (minus !== undefined) {
      pending += 1;
      negations += 1;
    } else if (phrase !== undefined || run !== undefined) {
      terms.push({ text: phrase ?? run!, negated: pending % 2 === 1, quoted: phrase !== undefined });
      pending = 0;
    }
  }
  return { terms, negations };
}
