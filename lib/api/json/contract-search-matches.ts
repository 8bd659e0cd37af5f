// A search's newest matches (the contracts list with `q`), partition by partition, each walked or
// looked up as a sample of the newest documents chooses.
import { Prisma } from "@/lib/generated/prisma/client";
import { AUTH_CTE, integerSql, type Sql } from "@/lib/db/sql";
import type { TContractListQuery } from "@/lib/schemas";
import { CONTRACT_STATES } from "@/lib/domain/enums";
import { KEPT_TOTALS, contractFilterSql, contractWhereSql } from "@/lib/api/json/contract-filter";
import { SEARCH_PARTITIONS, searchMatchSql, searchPartitionName } from "@/lib/api/json/contract-search";

/** The newest documents of the workspaces searched that the sample reads (`searchMatchesSql`). */
export const SEARCH_SAMPLE = 500;

/**
 * What one document read through the GIN index costs against one walked, in the sample's choice: at
 * 1,000,200 contracts a look-up read 4.6 µs a match (a company's name: 240,000 in 1.1 s), more with
 * a filter's join, and a walk 1.1–1.5 µs a document.
 */
export const SEARCH_LOOK_UP_COST = 4;

/** How the matches are found: as the sample decides, or one way in every partition (tests hold each way to the same answer). */
export type TSearchWay = "sampled" | "walk" | "look-up";

/**
 * The newest `limit` contracts that match `q` and the list's filters in the workspaces searched (the
 * caller's, all of them for an admin, or the one asked for of those), as rows `(id, rank)` (`rankOf`
 * the document `s`), newest first. The workspace and the state are the documents' own columns
 * (migration `search_state`): a search filtered by state reads that state's documents by the state's
 * partial index, and joins the contracts only for another filter.
 *
 * Found partition by partition (`SEARCH_PARTITIONS`, migration `search_by_workspace`), each its own
 * query with its own limit, merged newest first, in one of two ways: a word most of a partition's
 * documents hold is met within its first rows (a walk along the key), a word few of them hold is
 * looked up in its GIN index. The merge reads each partition only as far as the newest matches of
 * all reach. One query over the partitioned table (one limit over all of them) costs each
 * partition's walk by the share of the limit the whole table's estimate gives it, so a word common
 * in one workspace and rare in another walked every document of the other (1.1 s for `agreement`
 * at 1,000,000 contracts; bench/results/search-skew-2026-11-30.md).
 *
 * The way is not the planner's: it knows no word searched (contract-search.ts: `q` is a value of
 * the run, so the statement is planned once for every search), and for several words it took them
 * as independent, so words that go together (a company's whole name) looked rare and each partition
 * read every document holding them through the GIN index (0.8 s at 1,000,000 contracts; 4.4 s with
 * a state filter: bench/results/search-words-together-2026-12-01.md). The statement holds both ways
 * for each partition, and a sample chooses (`sampledWaysSql`): the newest `SEARCH_SAMPLE` documents
 * of the workspaces and state searched (`P`, fewer where fewer are searched), of which `found` hold
 * the words and `hits` also pass the other filters. The walk reads `limit · P / hits` documents, the
 * look-up every document holding the words, `found · N / P` (`N`: the contracts searched, from the
 * kept totals), each costing `SEARCH_LOOK_UP_COST` documents walked. A walk reads along its
 * partition's key, the other workspaces' documents too: each partition's share of the walk (its share
 * of the sample) counts as many times over as the partition holds documents for each one searched
 * (its spread, from the kept totals; 1 where it holds only the workspaces searched). So a small
 * workspace beside a large one is looked up unless its words are in nearly all of its documents, and
 * one alone in its partition is walked when that is cheaper, however small. When the walk costs less, each
 * partition with a hit in the sample is walked; one with none is looked up (a merge reads the first
 * match of each partition before any: a walk of one that holds none would read all of it). Only one
 * way runs in each partition (each behind a one-time filter), and each is exact.
 */
export function searchMatchesSql(query: TContractListQuery, q: string, limit: number, rankOf: Sql, way: TSearchWay = "sampled"): Sql {
  const parts = searchParts(query, q, limit);
  const newest = (members: Sql[]) => Prisma.sql`(SELECT u.id, u.rank FROM (${Prisma.join(members, " UNION ALL ")}) u ORDER BY u.id DESC LIMIT ${integerSql(limit)})`;
  const each = (member: (k: number) => Sql[]) => Array.from({ length: SEARCH_PARTITIONS }, (_, k) => member(k)).flat();
  const always = Prisma.raw("true");
  if (way !== "sampled") return Prisma.sql`(WITH ${parts.held} SELECT * FROM ${newest(each((k) => [parts.partition(k, way === "walk", rankOf, always)]))} w)`;
  // Each partition walked or looked up as the sample chose for it (`way.w0` … `way.w7`).
  const walks = (k: number) => Prisma.sql`(SELECT ${Prisma.raw(`way.w${k}`)} FROM way)`;
  const members = each((k) => [parts.partition(k, true, rankOf, walks(k)), parts.partition(k, false, rankOf, Prisma.sql`NOT ${walks(k)}`)]);
  return Prisma.sql`(WITH ${parts.held}, way AS MATERIALIZED (${sampledWaysSql(parts, q, limit, SEARCH_SAMPLE)})
      SELECT * FROM ${newest(members)} u)`;
}

/**
 * The sample's choice for each partition, a row of booleans `w0` … `w7` (true: walk it), to find the
 * newest `limit` matches (`searchMatchesSql`). Reads `held` (`searchParts`). Known limit: a small
 * workspace that shares its partition with a large one has its sample read along the whole
 * partition's key.
 */
function sampledWaysSql(parts: TSearchParts, q: string, limit: number, sample: number): Sql {
  const { conditions, filters, holds, searched, inState } = parts;
  const match = searchMatchSql(q);
  // Each partition's newest documents, whether each holds the words, merged; the newest P of them
  // (fewer where fewer are searched), and of those that hold the words, those whose contract passes
  // the filters.
  const sampleOf = (k: number) => Prisma.sql`(SELECT s.contract_id AS id, ${k}::int AS part, ${match} AS found FROM ${Prisma.raw(searchPartitionName(k))} s
      WHERE ${holds(k)} AND ${searched("s")} ORDER BY s.contract_id DESC LIMIT ${integerSql(sample)})`;
  const passes = conditions.length === 0 ? Prisma.raw("true") : Prisma.sql`EXISTS (SELECT 1 FROM contracts c WHERE c.id = y.id AND ${filters})`;
  const partitions = Array.from({ length: SEARCH_PARTITIONS }, (_, k) => k);
  const each = (column: (k: number) => Sql) => Prisma.join(partitions.map(column));
  // The kept totals of each workspace (in the state searched), all and those searched, and the
  // partition its documents are in: the one whose constraint it satisfies (PostgreSQL's own test of
  // a hash partition's rows, `satisfies_hash_partition`, as `\d+ contract_search_p0` shows it).
  const state = inState("k");
  const partitionOf = Prisma.sql`(SELECT p FROM generate_series(0, ${integerSql(SEARCH_PARTITIONS - 1)}) p
      WHERE satisfies_hash_partition('contract_search'::regclass, ${integerSql(SEARCH_PARTITIONS)}, p, k.workspace_id))`;
  const workspaces = Prisma.sql`SELECT k.workspace_id, ${partitionOf} AS part, sum(k.n) AS total, sum(k.n) FILTER (WHERE ${searched("k")}) AS searched
      FROM ${KEPT_TOTALS} k
     ${state === null ? Prisma.empty : Prisma.sql`WHERE ${state}`} GROUP BY k.workspace_id`;
  // N, and each partition's spread: its documents for each one searched.
  const spread = (k: number) =>
    Prisma.sql`COALESCE(sum(w.total) FILTER (WHERE w.part = ${k}::int)::float8 / NULLIF(sum(w.searched) FILTER (WHERE w.part = ${k}::int), 0), 1) AS ${Prisma.raw(`spread${k}`)}`;
  // The walk's documents: each partition's share of the sample, times its spread.
  const walked = Prisma.join(
    partitions.map((k) => Prisma.sql`${Prisma.raw(`a.s${k}`)} * ${Prisma.raw(`n.spread${k}`)}`),
    " + ",
  );
  return Prisma.sql`WITH w AS MATERIALIZED (${workspaces}),
         n AS MATERIALIZED (SELECT COALESCE(sum(w.searched), 0)::float8 AS contracts, ${each(spread)} FROM w)
    SELECT ${each((k) => Prisma.sql`x.walk AND ${Prisma.raw(`x.h${k}`)} > 0 AS ${Prisma.raw(`w${k}`)}`)}
      FROM (SELECT ${limit}::float8 * a.sampled * (${walked}) <= ${SEARCH_LOOK_UP_COST}::float8 * a.hits * a.found * n.contracts AS walk, a.*
              FROM (SELECT count(*)::float8 AS sampled, count(*) FILTER (WHERE y.found)::float8 AS found, count(*) FILTER (WHERE y.hit)::float8 AS hits,
                           ${each((k) => Prisma.sql`count(*) FILTER (WHERE y.hit AND y.part = ${k}::int) AS ${Prisma.raw(`h${k}`)}`)},
                           ${each((k) => Prisma.sql`count(*) FILTER (WHERE y.part = ${k}::int) AS ${Prisma.raw(`s${k}`)}`)}
                      FROM (SELECT y.*, y.found AND ${passes} AS hit
                              FROM (SELECT u.id, u.part, u.found FROM (${Prisma.join(partitions.map(sampleOf), " UNION ALL ")}) u
                                     ORDER BY u.id DESC LIMIT ${integerSql(sample)}) y) y) a, n) x`;
}

/** The sample's choice alone (`sampledWaysSql`) as an array of each partition's (true: walked), for the tests of the choice. */
export const searchWalksSql = (query: TContractListQuery, q: string, limit: number, sample: number): Sql => {
  const parts = searchParts(query, q, limit);
  const ways = Array.from({ length: SEARCH_PARTITIONS }, (_, k) => Prisma.raw(`w.w${k}`));
  return Prisma.sql`(WITH ${parts.held} SELECT ARRAY[${Prisma.join(ways)}] FROM (${sampledWaysSql(parts, q, limit, sample)}) w)`;
};

type TSearchParts = ReturnType<typeof searchParts>;

/**
 * A state as a constant of the statement, not a parameter: the planner uses a state's partial index
 * of documents (migration `search_state`) only where it can see the state (`$1::text::contract_state`
 * is a conversion it runs at execution). One of the type's own values, never the caller's text.
 */
const STATE_CONSTANTS = new Map(CONTRACT_STATES.map((state) => [state, Prisma.raw(`'${state}'::contract_state`)]));
function stateConstant(state: (typeof CONTRACT_STATES)[number]): Sql {
  const constant = STATE_CONSTANTS.get(state);
  if (constant === undefined) throw new Error(`not a contract state: ${state}`);
  return constant;
}

/** The pieces of a search's statement, for `query`'s filters and workspaces. */
function searchParts(query: TContractListQuery, q: string, limit: number) {
  // The workspace and the state are read from the documents (migration `search_state`), the other
  // filters from their contracts.
  const { conditions } = contractFilterSql({ ...query, q: undefined, workspace_id: undefined, state: undefined });
  const filters = contractWhereSql(conditions, false);
  const scope = AUTH_CTE.scope;
  // The workspace asked for, once for the statement (an InitPlan) like the caller's: a plan that knew
  // it would cost the partitions that do not hold it as empty, and cost more than the one plan for
  // every workspace, so PostgreSQL would plan each run (a user of one workspace's search: 70 ms).
  const asked = query.workspace_id === undefined ? null : Prisma.sql`(SELECT ${query.workspace_id}::int)`;
  // The state searched (null: any), and the workspaces and the state searched, as conditions on the
  // rows `alias` (documents, or the kept totals: both have the columns `workspace_id` and `state`).
  const inState = (alias: string) => (query.state === undefined ? null : Prisma.sql`${Prisma.raw(`${alias}.state`)} = ${stateConstant(query.state)}`);
  const searched = (alias: string) => {
    const ws = Prisma.raw(`${alias}.workspace_id`);
    const workspaces =
      asked === null ? Prisma.sql`(${scope}.all_ws OR ${ws} = ANY(${scope}.ws))` : Prisma.sql`${ws} = ${asked} AND (${scope}.all_ws OR ${asked} = ANY(${scope}.ws))`;
    const state = inState(alias);
    return state === null ? workspaces : Prisma.sql`${workspaces} AND ${state}`;
  };
  // A partition that holds none of the workspaces searched is not read: its walk would read every
  // document and keep none. One look-up in its workspace index, once for the statement (`held`). A
  // partition of one workspace has statistics saying every row holds it, so a plan that does not
  // know the workspace (the caller's, or one asked for in a plan made for every value) reads such a
  // partition in a sequential scan for its first match, all of it when it holds none (160 ms at
  // 200,000 documents): ordered by the index's column for the caller's; for one asked for, the
  // least workspace from it on, which PostgreSQL reads from the index's first entry whatever it
  // estimates.
  const holding = (table: Sql, workspaces: Sql) => Prisma.sql`(SELECT 1 FROM ${table} x WHERE x.workspace_id = ${workspaces} ORDER BY x.workspace_id LIMIT 1) IS NOT NULL`;
  const holdingAsked = (table: Sql, workspace: Sql) => Prisma.sql`COALESCE((SELECT min(x.workspace_id) FROM ${table} x WHERE x.workspace_id >= ${workspace}) = ${workspace}, false)`;
  const columns = Array.from({ length: SEARCH_PARTITIONS }, (_, k) => {
    const table = Prisma.raw(searchPartitionName(k));
    const holds = asked === null ? Prisma.sql`(${scope}.all_ws OR ${holding(table, Prisma.sql`ANY(${scope}.ws)`)})` : holdingAsked(table, asked);
    return Prisma.sql`${holds} AS ${Prisma.raw(`p${k}`)}`;
  });
  const held = Prisma.sql`held AS MATERIALIZED (SELECT ${Prisma.join(columns)})`;
  const holds = (k: number) => Prisma.sql`(SELECT ${Prisma.raw(`held.p${k}`)} FROM held)`;
  // One partition's newest matches, with their rank, where `gate` holds (a value of the statement).
  // The walk: along the key, newest first, with the match as a value the planner cannot estimate (it
  // takes half the documents to hold it), so it walks. The look-up: every match, from the GIN index
  // (a subquery of its own, `OFFSET 0`: no order and no limit reach it, so only the index finds its
  // rows, whatever the limit and the partition's size), then the newest. Each match's rank is read
  // once it is among them.
  const partition = (k: number, walked: boolean, rankOf: Sql, gate: Sql) => {
    const table = Prisma.raw(searchPartitionName(k));
    // The contracts' rows only for a filter of theirs: the search document alone keeps the planner
    // off a parallel merge with every contract for a word no one holds.
    const documents = conditions.length === 0 ? Prisma.sql`${table} s` : Prisma.sql`${table} s JOIN contracts c ON c.id = s.contract_id`;
    const where = Prisma.sql`${gate} AND ${holds(k)} AND ${searched("s")} AND ${filters}`;
    const match = searchMatchSql(q);
    const found = walked
      ? Prisma.sql`SELECT s.contract_id, s.tsv, s.name FROM ${documents} WHERE ${where} AND CASE WHEN ${match} THEN true END`
      : Prisma.sql`SELECT s.* FROM (SELECT s.contract_id, s.tsv, s.name FROM ${documents} WHERE ${where} AND ${match} OFFSET 0) s`;
    return Prisma.sql`(SELECT s.contract_id AS id, ${rankOf} AS rank FROM (${found} ORDER BY s.contract_id DESC LIMIT ${integerSql(limit)}) s)`;
  };
  return { conditions, filters, inState, searched, held, holds, partition };
}
