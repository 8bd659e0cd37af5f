// The contract answers (TContract, TContractListItem), written by PostgreSQL: the one producer of
// those shapes. The reads run in the authentication's statement (lib/db/sql.ts `TPreload`).
import type { Tx } from "@/lib/db";
import { answerOf } from "@/lib/db/query";
import { ACTING_USER_ID, ANSWER_ARG, answerArgs, AUTH_CTE, bytesFromEscaped, inScope, integerSql, jsonRow, listHeadSql, listPreload, type Sql, type TPreload, utf8BytesEscaped } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Actor } from "@/lib/domain/actor";
import type { TContractListQuery } from "@/lib/schemas";
import { CONTRACT_FIELDS } from "@/lib/schemas/contract";
import { answerFieldsSql } from "@/lib/api/json/answer-sql";
import { pageFormFor, type TPageForm } from "@/lib/services/page-form-for";
import { contractCountSql, contractFilterSql, inCallersFormSql, inEachScopeSql } from "@/lib/api/json/contract-filter";
import { SEARCH_JSON, searchArgs, searchRankOfDocumentSql, searchRankSql } from "@/lib/api/json/contract-search";
import { searchMatchesSql, type TSearchWay } from "@/lib/api/json/contract-search-matches";
import { contractSortOf } from "@/lib/schemas/contract";
import { SEARCH_MATCH_LIMIT } from "@/lib/schemas/limits";
import { actingUserIdOf } from "@/lib/api/json/participant";
import { PARTY_JSON, PARTY_SUMMARY_JSON } from "@/lib/api/json/party";
import { contractNotFound } from "@/lib/services/not-found";

/** The fields every contract answer starts with, for the contract `c` (links under `arg.base`: `ANSWER_ARG`). */
function contractFieldsSql(): Record<string, string> {
  const self = `${ANSWER_ARG.base} || '/v1/contracts/' || c.id`;
  const href = (url: string) => jsonRow({ href: url });
  return answerFieldsSql(CONTRACT_FIELDS, "c", {
    links: jsonRow({ self: href(self), parties: href(`${self} || '/parties'`), data_fields: href(`${self} || '/data_fields'`) }),
  });
}

/** The contract `c` with its parties and their people (TContract), as JSON text; reads `arg` (lib/db/sql.ts `ANSWER_ARG`). */
const CONTRACT_JSON = jsonRow({
  ...contractFieldsSql(),
  parties: `COALESCE((SELECT json_agg(${PARTY_JSON} ORDER BY p.id) FROM parties p WHERE p.contract_id = c.id), '[]')`,
}) + "::text";

/**
 * GET /v1/contracts/{id}: the answer for the caller (links under `origin`, with no
 * trailing slash), as UTF-8 bytes (lib/db/sql.ts `utf8BytesEscaped`), if the caller may see the
 * contract; else null.
 */
export function contractDetailPreload(contractId: number, origin: string): TPreload {
  return Prisma.sql`(SELECT ${CONTRACT_DETAIL} FROM contracts c, ${AUTH_CTE.scope}, ${answerArgs(origin, ACTING_USER_ID)}
    WHERE c.id = ${contractId}::int AND ${IN_SCOPE_C})`;
}

const CONTRACT_TEXT = Prisma.raw(CONTRACT_JSON);
const CONTRACT_DETAIL = utf8BytesEscaped(CONTRACT_TEXT);
const IN_SCOPE_C = inScope("c");

/**
 * The answer of contract `id` for `actor` (a contract just created or published), as JSON text; on
 * `db`, so inside a transaction it sees the transaction's writes (the stored idempotent answer).
 */
export async function contractAnswer(db: Tx, actor: Actor, origin: string, id: number): Promise<string> {
  const query = Prisma.sql`SELECT ${CONTRACT_TEXT} AS answer FROM contracts c, ${answerArgs(origin, actingUserIdOf(actor))} WHERE c.id = ${id}::int`;
  return answerOf(db, query, `contract ${id}`);
}

/** The preloaded answer's bytes, or the 404 of a contract the caller may not see. */
export function preloadedContract(preloaded: unknown, contractId: number): Buffer<ArrayBuffer> {
  if (preloaded === null || preloaded === undefined) throw contractNotFound(contractId);
  if (typeof preloaded !== "string") throw new Error("a contract preload is not the expected text");
  return bytesFromEscaped(preloaded);
}

const SORT_COLUMNS = { id: "id", name: "name", created_time: "created_at", updated_time: "updated_at", end_date: "ends_on", notice_deadline: "notice_deadline" } as const;
/** Sorts on a column that may be null: contracts without the date come last either way. */
const NULLABLE_SORT_COLUMNS: ReadonlySet<string> = new Set(["ends_on", "notice_deadline"]);

/**
 * `ORDER BY` of a list query's order (`contractSortOf`): the column, then id, both in the sort's
 * direction (nulls last); `relevance`, the search's rank, best first, then the newest.
 */
export function contractOrderSql(query: Pick<TContractListQuery, "sort" | "q">): Sql {
  const sort = contractSortOf(query);
  if (sort === "relevance") return Prisma.sql`${searchRankSql(query.q ?? "")} DESC, c.id DESC`;
  const direction = sort.startsWith("-") ? "DESC" : "ASC";
  const column = SORT_COLUMNS[sort.replace(/^-/, "") as keyof typeof SORT_COLUMNS];
  const nulls = NULLABLE_SORT_COLUMNS.has(column) ? " NULLS LAST" : "";
  return Prisma.raw(column === "id" ? `c.id ${direction}` : `c.${column} ${direction}${nulls}, c.id ${direction}`);
}

/** A contracts list item (TContractListItem) of the contract `c`; reads `arg.base` (lib/db/sql.ts `ANSWER_ARG`). */
const LIST_ITEM = Prisma.raw(
  jsonRow({
    ...contractFieldsSql(),
    parties: `COALESCE((SELECT json_agg(${PARTY_SUMMARY_JSON} ORDER BY p.id) FROM parties p WHERE p.contract_id = c.id), '[]')`,
  }),
);

/** The same with `_search` (why it matched `q`); reads `sarg` too (contract-search.ts `searchArgs`). */
const SEARCH_LIST_ITEM = Prisma.raw(
  jsonRow({
    ...contractFieldsSql(),
    parties: `COALESCE((SELECT json_agg(${PARTY_SUMMARY_JSON} ORDER BY p.id) FROM parties p WHERE p.contract_id = c.id), '[]')`,
    _search: SEARCH_JSON,
  }),
);

/**
 * GET /v1/contracts: a page of the contracts the caller may see, filtered and sorted (ties broken
 * by id), and their count, as the start of the answer's JSON text: `{"count":…,"data":[…]` with
 * each item a TContractListItem (links under `origin`). A
 * page is ~100 KB of JSON: PostgreSQL writes it once, and the route only appends `_links`, instead
 * of parsing and writing it again.
 */
export function contractListPreload(
  query: TContractListQuery,
  origin: string,
  { pageForm = pageFormFor(query.offset), matchLimit = SEARCH_MATCH_LIMIT, searchWay }: { pageForm?: TPageForm; matchLimit?: number; searchWay?: TSearchWay } = {},
): TPreload {
  const page = Prisma.sql`LIMIT ${query.limit}::int OFFSET ${query.offset}::int`;
  const q = query.q;
  if (q !== undefined) {
    // Each item's `_search` only when asked (`matches`): for a page of 100 it is about a third of a
    // broad search's time (docs/performance.md "Search").
    const marked = query.matches === "true";
    const head = searchListHeadSql(query, q, page, matchLimit, searchWay, marked ? SEARCH_LIST_ITEM : LIST_ITEM);
    return listPreload(Prisma.sql`(SELECT ${head} FROM ${answerArgs(origin, null)}${marked ? Prisma.sql`, ${searchArgs(q)}` : Prisma.empty})`);
  }
  const { conditions: where } = contractFilterSql(query);
  const order = contractOrderSql(query);
  const item = LIST_ITEM;
  // The count in the caller's form (`inCallersFormSql`): from the kept totals where it can
  // (contract-filter.ts `contractCountSql`), else the rows.
  const count = inCallersFormSql((scoped) => contractCountSql(query, scoped));
  // The page's rows in each workspace form, one union (`inEachScopeSql`). Deferred: the page's ids
  // first, then their rows: skipping 19,900 contracts is then a walk along an index (an index-only
  // scan where the visibility map allows), not 19,900 rows read and dropped. Direct: near the start,
  // the rows themselves, without the second look-up per row.
  const pageRows = (columns: Sql) =>
    inEachScopeSql(where, (filter) => Prisma.sql`(SELECT ${columns} FROM contracts c WHERE ${filter} ORDER BY ${order} ${page})`, { oneByKey: pageForm === "deferred" });
  const items =
    pageForm === "direct"
      ? Prisma.sql`(SELECT json_agg(${item} ORDER BY ${order}) FROM (${pageRows(Prisma.raw("c.*"))}) c)`
      : Prisma.sql`(SELECT json_agg(${item} ORDER BY ${order}) FROM (${pageRows(Prisma.raw("c.id"))}) k JOIN contracts c ON c.id = k.id)`;
  // As bytes in pieces (lib/db/sql.ts `listPreload`): the text never becomes one JavaScript string.
  return listPreload(Prisma.sql`(SELECT ${listHeadSql(count, items)} FROM ${answerArgs(origin, null)})`);
}

/**
 * A search's list head: the newest `SEARCH_MATCH_LIMIT` matches, found once (`m`: contract-search-
 * matches.ts), and one more if there is one, which only says that more match (`count_exact` false;
 * count and pages stop at the limit); then those in the list's order (`relevance`: ranked) and the
 * page taken from them, each as `item` (LIST_ITEM, or SEARCH_LIST_ITEM with `_search`).
 */
function searchListHeadSql(query: TContractListQuery, q: string, page: Sql, matchLimit: number, way: TSearchWay | undefined, item: Sql): Sql {
  const relevance = contractSortOf(query) === "relevance";
  // The rank of each match is read from its document as it is found (none for another order).
  const rank = relevance ? searchRankOfDocumentSql(q) : Prisma.raw("NULL::float8");
  const ordered = relevance
    ? Prisma.sql`SELECT m.id, row_number() OVER (ORDER BY m.rank DESC, m.id DESC) AS ord FROM m WHERE m.newest <= ${integerSql(matchLimit)}`
    : Prisma.sql`SELECT c.id, row_number() OVER (ORDER BY ${contractOrderSql(query)}) AS ord FROM m JOIN contracts c ON c.id = m.id WHERE m.newest <= ${integerSql(matchLimit)}`;
  return Prisma.sql`(WITH m AS MATERIALIZED (
        SELECT f.id, row_number() OVER (ORDER BY f.id DESC) AS newest, f.rank FROM ${searchMatchesSql(query, q, matchLimit + 1, rank, way)} f)
      SELECT ${listHeadSql(
        Prisma.sql`(SELECT least(count(*), ${integerSql(matchLimit)}) FROM m)`,
        Prisma.sql`(SELECT json_agg(${item} ORDER BY c.ord)
            FROM (SELECT c.*, p.ord FROM (SELECT * FROM (${ordered}) r ORDER BY r.ord ${page}) p JOIN contracts c ON c.id = p.id) c)`,
        Prisma.sql`(SELECT count(*) <= ${integerSql(matchLimit)} FROM m)`,
      )})`;
}
