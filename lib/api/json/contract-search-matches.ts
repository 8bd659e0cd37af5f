// A search's newest matches (the contracts list with `q`), partition by partition, and for a search
// of several words, which way finds them, chosen by a sample of the newest documents.
import { Prisma } from "@/lib/generated/prisma/client";
import { AUTH_CTE, type Sql } from "@/lib/db/sql";
import type { TContractListQuery } from "@/lib/schemas";
import { contractFilterSql, contractWhereSql } from "@/lib/api/json/contract-filter";
import { SEARCH_PARTITIONS, searchMatchSql, searchPartitionName, searchWordCount } from "@/lib/api/json/contract-search";

/** The newest documents of the workspaces searched that the sample reads (`searchMatchesSql`). */
export const SEARCH_SAMPLE = 500;

/**
 * What one document read through the GIN index costs against one walked, in the sample's choice: at
 * 1,000,200 contracts a look-up read 4.6 µs a match (a company's name: 240,000 in 1.1 s), more with
 * a filter's join, and a walk 1.1–1.5 µs a document.
 */
export const SEARCH_LOOK_UP_COST = 4;

/** How the matches are found: as the sample decides, or one way whatever it says (tests hold each way to the same answer). */
export type TSearchWay = "sampled" | "walk" | "planned";

/**
 * The newest `limit` contracts that match `q` and the list's filters in the workspaces searched (the
 * caller's, all of them for an admin, or the one asked for of those), as rows `(id, rank)` (`rankOf`
 * the document `s`), newest first.
 *
 * Found partition by partition (`SEARCH_PARTITIONS`, migration `search_by_workspace`), each its own
 * query with its own limit, merged newest first: a word most of a partition's documents hold is met
 * within its first rows (a walk along the key), a word few of them hold is looked up in its GIN
 * index, whatever the other partitions hold. The merge reads each partition only as far as the
 * newest matches of all reach. One query over the partitioned table (one limit over all of them)
 * costs each partition's walk by the share of the limit the whole table's estimate gives it, so a
 * word common in one workspace and rare in another walked every document of the other (1.1 s for
 * `agreement` at 1,000,000 contracts; bench/results/search-skew-2026-11-30.md).
 *
 * Each partition's way is the planner's, by its estimate of the search: right for one word (its
 * statistics count each word). For several it takes the words as independent, and words that go
 * together (a company's whole name) look rare: each partition read every document holding them
 * through the GIN index (0.8 s at 1,000,000 contracts; 4.4 s with a state filter:
 * bench/results/search-words-together-2026-12-01.md). So for several words the statement holds both
 * ways, and a sample chooses one of them for every partition: the newest `SEARCH_SAMPLE` documents
 * (`P`) of the workspaces searched, of which `found` hold the words and `hits` also pass the filters.
 * The walk reads `limit · P / hits` documents, the look-up every document holding the words,
 * `found · N / P` (`N`: the contracts of the workspaces searched, from the kept totals), each
 * costing `SEARCH_LOOK_UP_COST` documents walked; the walk runs when it costs less, or when the
 * sample holds every document. Only one way runs (each behind a one-time filter), and each is exact.
 * Known limit: one choice for all partitions. Words common in one workspace's newest documents and
 * absent from another partition choose the walk, and the merge reads the first match of each
 * partition before any, so that partition is walked to its end (docs/performance.md "Search").
 */
export function searchMatchesSql(query: TContractListQuery, q: string, limit: number, rankOf: Sql, way: TSearchWay = "sampled"): Sql {
  const { held, partition } = searchParts(query, q, limit);
  const newest = (walked: boolean) =>
    Prisma.sql`(SELECT u.id, u.rank FROM (${Prisma.join(
      Array.from({ length: SEARCH_PARTITIONS }, (_, k) => partition(k, walked, rankOf)),
      " UNION ALL ",
    )}) u ORDER BY u.id DESC LIMIT ${limit}::int)`;
  if (way === "planned" || (way === "sampled" && searchWordCount(q) < 2)) return Prisma.sql`(WITH ${held} SELECT * FROM ${newest(false)} l)`;
  if (way === "walk") return Prisma.sql`(WITH ${held} SELECT * FROM ${newest(true)} w)`;
  return Prisma.sql`(WITH ${held}, way AS MATERIALIZED (SELECT ${searchWalksOfSampleSql(query, q, limit, SEARCH_SAMPLE)} AS walk)
      SELECT w.id, w.rank FROM ${newest(true)} w WHERE (SELECT walk FROM way)
      UNION ALL
      SELECT l.id, l.rank FROM ${newest(false)} l WHERE NOT (SELECT walk FROM way))`;
}

/**
 * Whether the sample of the newest `sample` documents chooses the walk to find the newest `limit`
 * matches (`searchMatchesSql`), as a boolean value of the statement. Reads `held` (`searchParts`).
 */
function searchWalksOfSampleSql(query: TContractListQuery, q: string, limit: number, sample: number): Sql {
  const { conditions, filters, holds, searched } = searchParts(query, q, limit);
  const match = searchMatchSql(q);
  // Each partition's newest documents, whether each holds the words, merged; the newest P of them,
  // and of those that hold the words, those whose contract passes the filters.
  const sampleOf = (k: number) => Prisma.sql`(SELECT s.contract_id AS id, ${match} AS found FROM ${Prisma.raw(searchPartitionName(k))} s
      WHERE ${holds(k)} AND ${searched("s")} ORDER BY s.contract_id DESC LIMIT ${sample}::int)`;
  const passes = conditions.length === 0 ? Prisma.raw("true") : Prisma.sql`EXISTS (SELECT 1 FROM contracts c WHERE c.id = y.id AND ${filters})`;
  const contracts = Prisma.sql`(SELECT COALESCE(sum(k.n), 0)::float8 FROM (SELECT workspace_id, n FROM contract_counts UNION ALL SELECT workspace_id, n FROM contract_count_deltas) k
      WHERE ${searched("k")})`;
  const p = Prisma.sql`${sample}::float8`;
  return Prisma.sql`(SELECT x.docs < ${p} OR ${limit}::float8 * ${p} * ${p} <= ${SEARCH_LOOK_UP_COST}::float8 * x.hits * x.found * ${contracts}
      FROM (SELECT count(*)::float8 AS docs, count(*) FILTER (WHERE y.found)::float8 AS found, count(*) FILTER (WHERE y.found AND ${passes})::float8 AS hits
              FROM (SELECT u.id, u.found FROM (${Prisma.join(
                Array.from({ length: SEARCH_PARTITIONS }, (_, k) => sampleOf(k)),
                " UNION ALL ",
              )}) u ORDER BY u.id DESC LIMIT ${sample}::int) y) x)`;
}

/** The sample's choice alone (`searchWalksOfSampleSql`), for the tests of the choice: true for the walk. */
export const searchWalksSql = (query: TContractListQuery, q: string, limit: number, sample: number): Sql =>
  Prisma.sql`(WITH ${searchParts(query, q, limit).held} SELECT ${searchWalksOfSampleSql(query, q, limit, sample)})`;

/** The pieces of a search's statement, for `query`'s filters and workspaces. */
function searchParts(query: TContractListQuery, q: string, limit: number) {
  const { conditions } = contractFilterSql({ ...query, q: undefined, workspace_id: undefined });
  const filters = contractWhereSql(conditions, false);
  const scope = AUTH_CTE.scope;
  const asked = query.workspace_id === undefined ? null : Prisma.sql`${query.workspace_id}::int`;
  // The workspaces searched, as a condition on the rows `alias`.
  const searched = (alias: string) => {
    const ws = Prisma.raw(`${alias}.workspace_id`);
    return asked === null ? Prisma.sql`(${scope}.all_ws OR ${ws} = ANY(${scope}.ws))` : Prisma.sql`${ws} = ${asked} AND (${scope}.all_ws OR ${asked} = ANY(${scope}.ws))`;
  };
  // A partition that holds none of the workspaces searched is not read: its walk would read every
  // document and keep none. One look-up in its workspace index, once for the statement (`held`;
  // ordered by the index's column: a partition of one workspace has statistics saying every row
  // holds it, and EXISTS would read them all in a sequential scan when it does not).
  const holding = (table: Sql, workspaces: Sql) => Prisma.sql`(SELECT 1 FROM ${table} x WHERE x.workspace_id = ${workspaces} ORDER BY x.workspace_id LIMIT 1) IS NOT NULL`;
  const columns = Array.from({ length: SEARCH_PARTITIONS }, (_, k) => {
    const table = Prisma.raw(searchPartitionName(k));
    const holds = asked === null ? Prisma.sql`(${scope}.all_ws OR ${holding(table, Prisma.sql`ANY(${scope}.ws)`)})` : holding(table, asked);
    return Prisma.sql`${holds} AS ${Prisma.raw(`p${k}`)}`;
  });
  const held = Prisma.sql`held AS MATERIALIZED (SELECT ${Prisma.join(columns)})`;
  const holds = (k: number) => Prisma.sql`(SELECT ${Prisma.raw(`held.p${k}`)} FROM held)`;
  // One partition's newest matches, with their rank. `walked`: the match as a value the planner
  // cannot estimate (it takes half the documents to hold it), so it walks the partition newest first.
  const partition = (k: number, walked: boolean, rankOf: Sql) => {
    const table = Prisma.raw(searchPartitionName(k));
    // The contracts' rows only for a filter of theirs: the search document alone keeps the planner
    // off a parallel merge with every contract for a word no one holds.
    const documents = conditions.length === 0 ? Prisma.sql`${table} s` : Prisma.sql`${table} s JOIN contracts c ON c.id = s.contract_id`;
    const match = searchMatchSql(q);
    const matches = walked ? Prisma.sql`CASE WHEN ${match} THEN true END` : match;
    return Prisma.sql`(SELECT s.contract_id AS id, ${rankOf} AS rank FROM ${documents}
         WHERE ${holds(k)} AND ${searched("s")} AND ${matches} AND ${filters}
         ORDER BY s.contract_id DESC LIMIT ${limit}::int)`;
  };
  return { conditions, filters, searched, held, holds, partition };
}
