// The contracts list's search (`q`), as SQL written once: which contracts match (the list, its
// count, the CSV), how well (the `relevance` sort) and where (each item's `_search`). A contract's
// search document (`contract_search`: its text and its words, kept by triggers in the transaction of
// every change; migration `contract_search`) is what matches; the page's own rows say where.
//
// In the list's search every value made of `q` (its words as a query, its patterns) is computed
// once a statement, as a scalar subquery of its parameter (an InitPlan: `TSearchValues` "once"),
// never as an expression beside each document. So no plan depends on the words searched:
// PostgreSQL estimates every search alike (a match of a query it does not know: 0.5 % of the
// documents), the list chooses its way by a sample it reads at run time
// (contract-search-matches.ts), and its statement is prepared under a name like every other read,
// planned once (docs/performance.md "Search"). Written as `websearch_to_tsquery('simple', $1)`
// beside each document, a plan made for no particular value parsed the query again for each
// document a walk read (a person's name at 1,000,200 contracts: 51 ms against 25).
import { Prisma } from "@/lib/generated/prisma/client";
import type { Sql } from "@/lib/db/sql";
import { caseForms } from "@/lib/domain/case-forms";
import { searchTerms } from "@/lib/domain/search-syntax";

/**
 * The search documents' partitions (`contract_search_p0` … `_p7`, hash partitions by workspace:
 * migration `search_by_workspace`), which a search reads one by one (contract-search-matches.ts);
 * test/db/search-partitions.test.ts holds these names to the database's.
 */
export const SEARCH_PARTITIONS = 8;
export const searchPartitionName = (k: number) => `contract_search_p${k}`;

/** Below this length `q` matches words only: a substring of 1–2 characters has no trigram to look up. */
export const SEARCH_SUBSTRING_MIN = 3;
/** The matches an item names, and the characters a highlight shows around its first match. */
export const SEARCH_MATCHES_SHOWN = 5;
export const SEARCH_WINDOW = 160;
const SEARCH_WINDOW_BEFORE = 60;

/** `text` in a LIKE pattern, taken literally (`%`, `_` and `\` mean themselves). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, "\\$&");
/** `q` as LIKE's pattern of "contains". */
const containsPattern = (q: string) => `%${likeLiteral(q)}%`;

/**
 * Whether `q` is also looked for inside words: one term of 3 or more letters, digits and hyphens,
 * not negated (a part of a name or a number: `Korh`, `4411`, `PO-44`; `-sales` leaves out the word).
 * Anything else matches as words only: a
 * trigram look-up of an address or a domain reads the trigrams every document holds
 * (`example.org`: 100 ms at 1,000,000 contracts), and those are words of the document already
 * (an address, its domain and the part before `@`: migration `search_address_words`).
 */
export function searchesInsideWords(q: string): boolean {
  return q.length >= SEARCH_SUBSTRING_MIN && /^[\p{L}\p{N}][\p{L}\p{N}-]*$/u.test(q);
}

/**
 * How a statement holds the values made of `q`: "once", each computed once for the statement (an
 * InitPlan), for a statement planned once for every search (the list's); "seen", as expressions
 * of the parameter, which PostgreSQL reads when it plans for the values (a statement sent unnamed,
 * planned each run: the CSV's, which reads every match, hashes those of a common word where it
 * sees how many there are; not seeing, it took them as 0.5 % of the documents and joined them one
 * by one, twice as long: 5-6 s against 2.7-3 for `nordic` at 1,000,200 contracts).
 */
type TSearchValues = "once" | "seen";

/** `value` as the statement holds the values of `q` (`TSearchValues`). */
const valueSql = (value: Sql, values: TSearchValues): Sql => (values === "once" ? Prisma.sql`(SELECT ${value})` : value);

/** `q`'s words as a text search query (websearch syntax, the 'simple' configuration). */
const wordsQuerySql = (q: string, values: TSearchValues): Sql => valueSql(Prisma.sql`websearch_to_tsquery('simple', ${q}::text)`, values);

/**
 * Full-text words (websearch syntax, the 'simple' configuration), or a part of a word
 * (`searchesInsideWords`): LIKE on the document's text, which is kept in lower case (migration
 * `search_doc_lower_case`), with `q` in lower case by the same `lower()`: what ILIKE does, without
 * folding the text's case each time it is read. A part of a number (ASCII digits only) is looked
 * for in the text's runs of digits (`digits`, migration `search_digits`): the same documents hold
 * it, and a walk reads about a quarter of the characters (docs/performance.md "Search").
 */
export function searchMatchSql(q: string, values: TSearchValues = "once"): Sql {
  const words = Prisma.sql`s.tsv @@ ${wordsQuerySql(q, values)}`;
  if (!searchesInsideWords(q)) return words;
  return /^[0-9]+$/.test(q)
    ? Prisma.sql`(${words} OR s.digits LIKE ${containsPattern(q)}::text)`
    : Prisma.sql`(${words} OR s.doc LIKE ${valueSql(Prisma.sql`lower(${containsPattern(q)}::text)`, values)})`;
}

/**
 * The contracts `c` that match `q`, every one (the CSV's): the document's GIN indexes (words;
 * trigrams) find them, in a statement planned for its values (`TSearchValues` "seen").
 */
export function searchConditionSql(q: string): Sql {
  return Prisma.sql`c.id IN (SELECT s.contract_id FROM contract_search s WHERE ${searchMatchSql(q, "seen")})`;
}

/** Whether the contract `c` matches `q`, read from its own document (a few known contracts; `searchConditionSql` finds them). */
export function searchMatchesContractSql(q: string): Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM contract_search s WHERE s.contract_id = c.id AND s.workspace_id = c.workspace_id AND ${searchMatchSql(q)})`;
}

/** How well the contract `c` matches `q` (`searchRankOfDocumentSql` of its document, in its workspace's partition). */
export function searchRankSql(q: string): Sql {
  return Prisma.sql`(SELECT ${searchRankOfDocumentSql(q)} FROM contract_search s WHERE s.contract_id = c.id AND s.workspace_id = c.workspace_id)`;
}

/**
 * How well the search document `s` matches `q` (higher first): text search's rank of each of its
 * words where it is (weights: name 1, parties and people 0.4, data fields 0.2, text 0.1; any word
 * counts, `search_rank_query` of migration `search_rank_any_word`: ranked by all of them together,
 * every pair's every two places were compared, seconds a page for a search of many common words),
 * plus 1 when the name holds the whole search (`nameHoldsWholeSql`) and 0.5 when the document holds
 * its words together, in order (a phrase: read from the document's word positions; a case-blind
 * LIKE on each of 1,000 documents held cost 4.5 ms).
 */
export function searchRankOfDocumentSql(q: string): Sql {
  const inName = nameHoldsWholeSql(q);
  const anyWord = valueSql(Prisma.sql`search_rank_query(${q}::text)`, "once");
  const phrase = valueSql(Prisma.sql`phraseto_tsquery('simple', ${q}::text)`, "once");
  return Prisma.sql`(COALESCE(ts_rank(s.tsv, ${anyWord}), 0)::float8${inName === null ? Prisma.empty : Prisma.sql` + CASE WHEN ${inName} THEN 1 ELSE 0 END`}
      + CASE WHEN s.tsv @@ ${phrase} THEN 0.5 ELSE 0 END)`;
}

/**
 * Whether the name `s.name` holds the whole search (`searchWholePattern`; null: it searches no
 * word). Its words' regular expression is read only where a case-blind LIKE finds them in order:
 * read on each of 1,000 documents a broad search held, it cost 1–1.3 ms more.
 */
function nameHoldsWholeSql(q: string): Sql | null {
  if (searchesInsideWords(q)) return Prisma.sql`s.name ILIKE ${containsPattern(q)}::text`;
  const words = searchTermWords(q).flat();
  if (words.length === 0) return null;
  const inOrder = `%${words.map(likeLiteral).join("%")}%`;
  return Prisma.sql`(s.name ILIKE ${inOrder}::text AND s.name ~* ${wordsPattern(words)}::text)`;
}

/**
 * Text taken literally in a regular expression (PostgreSQL's ARE), each letter as the class of its
 * case forms (lib/domain/case-forms.ts: `[Iiİ]`): the case-insensitive match alone folds a letter
 * to its own upper and lower case, and missed `İstanbul`, which the search finds for `istanbul`.
 */
const literal = (text: string) =>
  [...text]
    .map((c) => {
      const forms = caseForms(c);
      return forms.length > 1 ? `[${forms.join("")}]` : c.replace(/[\\^$.|?*+()[\]{}]/, "\\$&");
    })
    .join("");

/**
 * The words of `q`'s terms as PostgreSQL reads them (lib/domain/search-syntax.ts), a list for each
 * term, split into its runs of letters (with their marks) and digits. A negated term is left out.
 */
function searchTermWords(q: string): string[][] {
  return searchTerms(q)
    .terms.filter((t) => !t.negated)
    .map((t) => termWords(t.text))
    .filter((words) => words.length > 0);
}

/** A term's runs of letters (with their marks) and digits. */
const termWords = (text: string): string[] => text.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];

/**
 * Words one after another, with anything but letters and digits between, as whole words: no letter
 * or digit just before or after (`_` and punctuation end a word, as text search reads it).
 */
const wordsPattern = (words: string[]) => `(?<![[:alnum:]])${words.map(literal).join("[^[:alnum:]]+")}(?![[:alnum:]])`;

/**
 * The whole search as one case-insensitive regular expression, or null: a part of a word anywhere,
 * as it is; else every searched word in order, together, with anything but letters and digits
 * between (`"Kappa Lambda"`, `Kappa  Lambda` and `kappa, lambda` alike).
 */
function searchWholePattern(q: string): string | null {
  if (searchesInsideWords(q)) return literal(q);
  const words = searchTermWords(q).flat();
  return words.length === 0 ? null : wordsPattern(words);
}

/**
 * What the highlights mark, as one case-insensitive regular expression, or null for nothing: the
 * whole search (`searchWholePattern`), and each searched term's words together (`sales,` marks
 * `sales`; `"net 30"` marks `net 30`, not each `net`). Longest first, so a longer one wins where two
 * overlap.
 */
export function searchHighlightPattern(q: string): string | null {
  const whole = searchWholePattern(q);
  const terms = searchTermWords(q).map((words) => ({ length: words.join(" ").length, sql: wordsPattern(words) }));
  const all = [...(whole === null ? [] : [{ length: Number.MAX_SAFE_INTEGER, sql: whole }]), ...terms].sort((a, b) => b.length - a.length);
  return all.length === 0 ? null : [...new Set(all.map((t) => t.sql))].join("|");
}

/** The relation `sarg` the item's `_search` reads: the highlight pattern, one parameter (NULL: nothing is marked). */
export const searchArgs = (q: string): Sql => Prisma.sql`(SELECT ${searchHighlightPattern(q)}::text AS pattern) sarg`;

/**
 * `t` split into plain and marked pieces (JSON array): whole when it fits the window, else cut to a
 * window around its first match (`windowed`). A text is first made free of chr(1), which marks.
 */
const highlight = (t: string) => `(SELECT CASE WHEN length(x.t) <= ${SEARCH_WINDOW} THEN to_json(string_to_array(${marked("x.t", 1)}, chr(1))) ELSE ${windowed("x.t")} END
    FROM (SELECT translate(${t}, chr(1), ' ') AS t) x)`;

/**
 * The text `t`, longer than the window, cut to a window around its first match of `sarg.pattern`
 * and split into plain and marked pieces (JSON array). The first match is found by one search: a
 * non-global replace marks it and `strpos` reads where (`regexp_instr` collects every match before
 * it answers: 1.4 s for a pattern of many words on a 200 KB section that holds one of them thousands
 * of times). The marking then reads the window alone, with the character on each side of it, so
 * each word bound is read as in the whole text (`planet` cut to `net` holds no word `net`): no match
 * starts at the character before (PostgreSQL 15's start position), and a match that runs into the
 * character after is the cut's and left unmarked. Those two characters then leave.
 */
const windowed = (t: string) => `(SELECT to_json(string_to_array(CASE WHEN u.st > 1 THEN '…' ELSE '' END || u.t || CASE WHEN u.more THEN '…' ELSE '' END, chr(1)))
    FROM (SELECT v.st, v.more, CASE WHEN v.more THEN left(regexp_replace(v.t, '\\x01([^\\x01]*)\\x01$', '\\1'), -1) ELSE v.t END AS t
      FROM (SELECT z.st, z.more, CASE WHEN z.st > 1 THEN substr(${marked("z.cut", 2)}, 2) ELSE ${marked("z.cut", 1)} END AS t
        FROM (SELECT y.st, substr(${t}, y.st - 1, ${SEARCH_WINDOW} + 2) AS cut, y.st + ${SEARCH_WINDOW} <= length(${t}) AS more
          FROM (SELECT greatest(1, strpos(regexp_replace(${t}, sarg.pattern, chr(1) || '\\&', 'i'), chr(1)) - ${SEARCH_WINDOW_BEFORE}) AS st) y) z) v) u)`;
/** `x` with every match of `sarg.pattern` from its character `from` on between two chr(1). */
const marked = (x: string, from: number) => `regexp_replace(${x}, sarg.pattern, chr(1) || '\\&' || chr(1), ${from}, 0, 'i')`;

/**
 * The contract `c`'s `_search` (TContractSearch): its texts that hold a marked term, in the order
 * name, parties (each one's name, then its identification number), participants' names, their
 * e-mail addresses, data field values, the text's sections (heading, then text, as the search reads
 * it: a data field's value where its placeholder stands, the other placeholders `…`, migration
 * `search_words_as_shown`), at most `SEARCH_MATCHES_SHOWN`. Reads `sarg` (`searchArgs`). The
 * sections' text is read in a subquery of its own (`OFFSET 0` keeps it one): called in the VALUES
 * beside it, `contract_text_searched` ran as a function call each time instead of as its body in the
 * statement, 0.2 ms a section (a page of 17 contracts with 119 sections: 26 ms, now 4).
 */
export const SEARCH_JSON = `(SELECT json_build_object('matches', COALESCE(json_agg(json_build_object('field', m.field, 'label', m.label, 'highlight', ${highlight("m.txt")}) ORDER BY m.ord, m.sub), '[]'))
  FROM (SELECT a.* FROM (
          SELECT 1 AS ord, 0 AS sub, 'name' AS field, NULL::text AS label, c.name AS txt
          UNION ALL SELECT 2, p.id * 2 + v.sub, v.field, NULL, v.txt FROM parties p
                      CROSS JOIN LATERAL (VALUES (0, 'party', p.name), (1, 'party_identification_number', p.identification_number)) v(sub, field, txt) WHERE p.contract_id = c.id
          UNION ALL SELECT v.ord, x.id, v.field, NULL, v.txt FROM parties p JOIN participants x ON x.party_id = p.id
                      CROSS JOIN LATERAL (VALUES (3, 'participant_name', x.name), (4, 'participant_email', x.email)) v(ord, field, txt) WHERE p.contract_id = c.id
          UNION ALL SELECT 5, f.id, 'data_field', f.name, f.value FROM contract_data_fields f WHERE f.contract_id = c.id
          UNION ALL SELECT 6, b.i * 2 + v.sub, v.field, v.label, v.txt
                      FROM (SELECT b.i, b.s->>'heading' AS heading, contract_text_searched(b.s->>'text', c.id) AS txt
                              FROM jsonb_array_elements(CASE WHEN jsonb_typeof(c.body->'sections') = 'array' THEN c.body->'sections' ELSE '[]' END) WITH ORDINALITY b(s, i)
                            OFFSET 0) b
                      CROSS JOIN LATERAL (VALUES (0, 'heading', NULL, b.heading), (1, 'text', NULLIF(b.heading, ''), b.txt)) v(sub, field, label, txt)
        ) a WHERE a.txt ~* sarg.pattern ORDER BY a.ord, a.sub LIMIT ${SEARCH_MATCHES_SHOWN}) m)`;
