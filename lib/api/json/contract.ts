// The contract answers (TContract, TContractListItem), written by PostgreSQL: the one producer of
// those shapes. The reads run in the authentication's statement (lib/db/sql.ts `TPreload`).
import type { Tx } from "@/lib/db";
import { answerOf } from "@/lib/db/query";
import { ACTING_USER_ID, ANSWER_ARG, answerArgs, AUTH_CTE, bytesFromEscaped, inScope, jsonRow, listHeadSql, listPreload, type Sql, type TPreload, utf8BytesEscaped, withPreloadForm } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Actor } from "@/lib/domain/actor";
import type { TContractListQuery } from "@/lib/schemas";
import { CONTRACT_FIELDS } from "@/lib/schemas/contract";
import { answerFieldsSql } from "@/lib/api/json/answer-sql";
import { pageFormFor, type TPageForm } from "@/lib/services/page-form-for";
import { contractCountSql, contractFilterSql, contractWhereSql, inCallersFormSql, inEachScopeSql } from "@/lib/api/json/contract-filter";
import { SEARCH_JSON, SEARCH_PARTITIONS, searchArgs, searchMatchSql, searchPartitionName, searchRankOfDocumentSql, searchRankSql } from "@/lib/api/json/contract-search";
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
  { pageForm = pageFormFor(query.offset), matchLimit = SEARCH_MATCH_LIMIT }: { pageForm?: TPageForm; matchLimit?: number } = {},
): TPreload {
  const page = Prisma.sql`LIMIT ${query.limit}::int OFFSET ${query.offset}::int`;
  const q = query.q;
  if (q !== undefined) {
    const search = listPreload(Prisma.sql`(SELECT ${searchListHeadSql(query, q, page, matchLimit)} FROM ${answerArgs(origin, null)}, ${searchArgs(q)})`);
    return withPreloadForm(search, { plannedEachTime: true });
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
 * A search's list head: the newest `SEARCH_MATCH_LIMIT` matches, found once (`m`), and one more if
 * there is one, which only says that more match (`count_exact` false; count and pages stop at the
 * limit); then those in the list's order (`relevance`: ranked) and the page taken from them.
 *
 * Found partition by partition (`SEARCH_PARTITIONS`, migration `search_by_workspace`), each its own
 * query with its own limit, merged newest first: a word most of a partition's documents hold is met
 * within its first rows (a walk along the key), a word few of them hold is looked up in its GIN
 * index, whatever the other partitions hold. The merge reads each partition only as far as the
 * newest matches of all reach. One query over the partitioned table (one limit over all of them)
 * costs each partition's walk by the share of the limit the whole table's estimate gives it, so a
 * word common in one workspace and rare in another walked every document of the other (1.1 s for
 * `agreement` at 1,000,000 contracts; bench/results/search-skew-2026-11-30.md).
 */
function searchListHeadSql(query: TContractListQuery, q: string, page: Sql, matchLimit: number): Sql {
  const { conditions } = contractFilterSql({ ...query, q: undefined, workspace_id: undefined });
  const relevance = contractSortOf(query) === "relevance";
  // The rank of each match is read from its document as it is found (none for another order).
  const rank = relevance ? searchRankOfDocumentSql(q) : Prisma.raw("NULL::float8");
  const ordered = relevance
    ? Prisma.sql`SELECT m.id, row_number() OVER (ORDER BY m.rank DESC, m.id DESC) AS ord FROM m WHERE m.newest <= ${matchLimit}::int`
    : Prisma.sql`SELECT c.id, row_number() OVER (ORDER BY ${contractOrderSql(query)}) AS ord FROM m JOIN contracts c ON c.id = m.id WHERE m.newest <= ${matchLimit}::int`;
  // The workspaces searched: the caller's (all of them for an admin), or the one asked for of those.
  const scope = AUTH_CTE.scope;
  const asked = query.workspace_id === undefined ? null : Prisma.sql`${query.workspace_id}::int`;
  const searched =
    asked === null ? Prisma.sql`(${scope}.all_ws OR s.workspace_id = ANY(${scope}.ws))` : Prisma.sql`s.workspace_id = ${asked} AND (${scope}.all_ws OR ${asked} = ANY(${scope}.ws))`;
  const partition = (k: number) => {
    const table = Prisma.raw(searchPartitionName(k));
    // A partition that holds none of the workspaces searched is not read: its walk would read every
    // document and keep none. One look-up in its workspace index, once (ordered by the index's
    // column: a partition of one workspace has statistics saying every row holds it, and EXISTS
    // would read them all in a sequential scan when it does not).
    const holding = (workspaces: Sql) => Prisma.sql`(SELECT 1 FROM ${table} x WHERE x.workspace_id = ${workspaces} ORDER BY x.workspace_id LIMIT 1) IS NOT NULL`;
    const holds = asked === null ? Prisma.sql`(${scope}.all_ws OR ${holding(Prisma.sql`ANY(${scope}.ws)`)})` : holding(asked);
    // The contracts' rows only for a filter of theirs: the search document alone keeps the planner
    // off a parallel merge with every contract for a word no one holds.
    const documents = conditions.length === 0 ? Prisma.sql`${table} s` : Prisma.sql`${table} s JOIN contracts c ON c.id = s.contract_id`;
    return Prisma.sql`(SELECT s.contract_id AS id, ${rank} AS rank FROM ${documents}
         WHERE ${holds} AND ${searched} AND ${searchMatchSql(q)} AND ${contractWhereSql(conditions, false)}
         ORDER BY s.contract_id DESC LIMIT ${matchLimit + 1}::int)`;
  };
  const partitions = Array.from({ length: SEARCH_PARTITIONS }, (_, k) => partition(k));
  return Prisma.sql`(WITH m AS MATERIALIZED (
        SELECT f.id, row_number() OVER (ORDER BY f.id DESC) AS newest, f.rank FROM (
          SELECT u.id, u.rank FROM (${Prisma.join(partitions, " UNION ALL ")}) u ORDER BY u.id DESC LIMIT ${matchLimit + 1}::int
        ) f)
      SELECT ${listHeadSql(
        Prisma.sql`(SELECT least(count(*), ${matchLimit}::int) FROM m)`,
        Prisma.sql`(SELECT json_agg(${SEARCH_LIST_ITEM} ORDER BY c.ord)
            FROM (SELECT c.*, p.ord FROM (SELECT * FROM (${ordered}) r ORDER BY r.ord ${page}) p JOIN contracts c ON c.id = p.id) c)`,
        Prisma.sql`(SELECT count(*) <= ${matchLimit}::int FROM m)`,
      )})`;
}
