// A letter's case forms as the database's lower() reads them: every character it lower-cases to the
// same letter. The search finds a word in any of them (text search lower-cases the document and the
// search alike), but PostgreSQL's case-insensitive regular expressions fold a letter of the pattern
// only to its own upper and lower case: `istanbul` missed `İstanbul` (lower-cased, `istanbul`),
// `straße` missed `STRAẞE`, `k` the Kelvin sign. The highlights write a letter as its forms
// instead (lib/api/json/contract-search.ts). Pure.

/**
 * A character's lower case, one character as the database's lower() maps it: JavaScript's, or its
 * first character where Unicode lower-cases to two (only `İ`: `i` and a combining dot above).
 */
const lowerOf = (c: string) => String.fromCodePoint(c.toLowerCase().codePointAt(0)!);

/**
 * The characters of each lower case that others lower-case to, read once from Unicode's case
 * mappings: its first two planes hold every letter that has a case (the later ones, ideographs,
 * tags and private use, none): 30 ms, once a process, at its first search.
 */
let forms: Map<string, string[]> | undefined;
function formsByLower(): Map<string, string[]> {
  if (forms) return forms;
  const sets = new Map<string, Set<string>>();
  for (let code = 0; code < 0x20000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const c = String.fromCodePoint(code);
    const lower = lowerOf(c);
    if (lower === c) continue;
    const set = sets.get(lower) ?? new Set([lower]);
    sets.set(lower, set.add(c));
  }
  forms = new Map([...sets].map(([lower, set]) => [lower, [...set].sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!)]));
  return forms;
}

/** Every form of the character `c` (itself included), in code point order; `[c]` when it has no case. */
export function caseForms(c: string): readonly string[] {
  return formsByLower().get(lowerOf(c)) ?? [c];
}
