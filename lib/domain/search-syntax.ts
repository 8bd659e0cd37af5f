// How PostgreSQL's `websearch_to_tsquery` reads a search (`q`), as far as the app needs it: its
// terms, which are negated, and how many `-` operators it holds. The search itself is PostgreSQL's
// (lib/api/json/contract-search.ts); this reading decides only what the highlights mark and what
// the request schema refuses, so both agree with it. Pure.
//
// It follows PostgreSQL's reader step by step: waiting for a term, `-` negates it, `"` starts a
// phrase (to the next quote, or the end), `!&|()<` are passed over, and anything else starts a run
// up to a space, a quote or one of those; after a term, `or` is an operator where PostgreSQL takes
// it as one (`parse_or_operator`), and anything else starts the next term. Spaces are ASCII's: the
// request schema makes every other space one (`searchSpaces`), because which Unicode spaces split
// words is the database's locale (no-break spaces never do; the embedded database splits on none).

/** What the request schema turns into a space before the search is read: every Unicode space (JavaScript's `\s`). */
export const searchSpaces = (q: string) => q.replace(/\s/gu, " ");

const isSpace = (c: string) => c === " " || (c >= "\t" && c <= "\r");
const isSeparator = (c: string) => "!&|()<".includes(c);
/** A character that continues a word after `or` (then `or` is no operator): letters, digits, `-`, `_`. */
const WORD_CHARACTER = /^[-_\p{L}\p{N}]$/u;

export interface TSearchTerm {
  /** The phrase or the run, as written. */
  text: string;
  /** After an odd number of `-`. */
  negated: boolean;
  quoted: boolean;
}

/**
 * Whether an `or` operator starts at `at` (right after a term): `or` in any ASCII case, followed by
 * something other than a letter, a digit, `-` or `_`, with something other than spaces after that.
 */
function orOperatorAt(chars: string[], at: number): boolean {
  if (chars[at]?.toLowerCase() !== "o" || chars[at + 1]?.toLowerCase() !== "r") return false;
  const next = chars[at + 2];
  if (next === undefined || WORD_CHARACTER.test(next)) return false;
  return chars.slice(at + 3).some((c) => !isSpace(c));
}

/** `q`'s terms in order, and the `-` operators it holds (PostgreSQL keeps at most 32 operators pending). */
export function searchTerms(q: string): { terms: TSearchTerm[]; negations: number } {
  const chars = [...q];
  const terms: TSearchTerm[] = [];
  let pending = 0;
  let negations = 0;
  let afterTerm = false;
  const push = (text: string, quoted: boolean) => {
    terms.push({ text, negated: pending % 2 === 1, quoted });
    pending = 0;
    afterTerm = true;
  };
  let i = 0;
  for (let c = chars[i]; c !== undefined; c = chars[i]) {
    if (afterTerm) {
      // A space waits for the operator; `or` is one; anything else is the next term (an implicit and).
      if (isSpace(c)) i += 1;
      else if (orOperatorAt(chars, i)) i += 2;
      afterTerm = isSpace(c);
    } else if (c === "-") {
      pending += 1;
      negations += 1;
      i += 1;
    } else if (c === '"') {
      const end = chars.indexOf('"', i + 1);
      push(chars.slice(i + 1, end === -1 ? chars.length : end).join(""), true);
      i = end === -1 ? chars.length : end + 1;
    } else if (isSpace(c) || isSeparator(c)) {
      i += 1;
    } else {
      let end = i + 1;
      for (let d = chars[end]; d !== undefined && !isSpace(d) && d !== '"' && !isSeparator(d); d = chars[end]) end += 1;
      push(chars.slice(i, end).join(""), false);
      i = end;
    }
  }
  return { terms, negations };
}
