// GET /v1/contracts/export.csv: every contract of a contracts list (its filters and sort, the
// caller's workspaces only) as CSV, streamed. Rows are read in batches (keyset batches; a search's by
// the ids of its matches, found once), each one statement taken only when the client has read the
// one before (a pull stream), so a list of 100,000 contracts never sits in memory: at most one batch
// of rows and its text do (and for a search, its matches' ids: 4 bytes a match).
import { stringify } from "csv-stringify/sync";
import type { PrismaClient } from "@/lib/db";
import { AUTH_CTE, isoTimeSql, type Sql } from "@/lib/db/sql";
import type { Actor } from "@/lib/domain/actor";
import { visibleWorkspaceIds } from "@/lib/domain/access";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TContractExportQuery } from "@/lib/schemas";
import { contractFilterSql, contractWhereSql } from "@/lib/api/json/contract-filter";
import { contractOrderSql } from "@/lib/api/json/contract";
import { searchMatchesContractSql } from "@/lib/api/json/contract-search";
import { contractSortOf } from "@/lib/schemas/contract";

/** Rows per statement: small enough to hold, large enough that a round trip is a small part of a batch. */
export const CSV_BATCH_ROWS = 1000;

/** The file's columns, in order: the header row, and each row's value by the same names. */
export const CONTRACT_CSV_COLUMNS = [
  "id",
  "name",
  "state",
  "workspace_id",
  "workspace",
  "lifecycle_state",
  "lifecycle_sub_state",
  "start_date",
  "period_end_date",
  "end_date",
  "notice_deadline",
  "renewals",
  "created_time",
  "updated_time",
  "counterparties",
] as const;

type TCsvRow = Record<(typeof CONTRACT_CSV_COLUMNS)[number], string | number | null>;
/** A keyset batch's row: with its sort key as text, where the next batch starts. */
type TKeysetRow = TCsvRow & { sort_key: string | null };

/**
 * A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (and, in some, a tab or carriage
 * return) as a formula: such a cell gets a leading apostrophe, which spreadsheets show as text and
 * hide (docs/security.md "Exports").
 */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The sort's column as the keyset compares it, and its value as exact text (written by PostgreSQL, read back by it). */
const KEYS = {
  id: { column: "c.id", text: "NULL", cast: "int", nullable: false },
  name: { column: "c.name", text: "c.name", cast: "text", nullable: false },
  created_time: { column: "c.created_at", text: "to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')", cast: "timestamptz", nullable: false },
  updated_time: { column: "c.updated_at", text: "to_char(c.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')", cast: "timestamptz", nullable: false },
  end_date: { column: "c.ends_on", text: "to_char(c.ends_on, 'YYYY-MM-DD')", cast: "date", nullable: true },
  notice_deadline: { column: "c.notice_deadline", text: "to_char(c.notice_deadline, 'YYYY-MM-DD')", cast: "date", nullable: true },
} as const;

interface TCursor {
  key: string | null;
  id: number;
}

interface TKey {
  column: Sql;
  text: Sql;
  cast: string;
  nullable: boolean;
  descending: boolean;
  byIdOnly: boolean;
}

/** The list's order (`contractSortOf`) as the keyset reads it, without `q` (and so never `relevance`). */
function keyOf(query: TContractExportQuery): TKey {
  const sort = contractSortOf(query);
  const key = KEYS[sort.replace(/^-/, "") as keyof typeof KEYS];
  return { column: Prisma.raw(key.column), text: Prisma.raw(key.text), cast: key.cast, nullable: key.nullable, descending: sort.startsWith("-"), byIdOnly: key.column === "c.id" };
}

/**
 * The rows after `cursor` in the list's order (`contractOrderSql`: the column in the sort's direction
 * with nulls last, then id the same way), as a condition on the contract `c`.
 */
function afterCursorSql(key: TKey, cursor: TCursor): Sql {
  const beyond = Prisma.raw(key.descending ? "<" : ">");
  const column = key.column;
  const value = Prisma.sql`${cursor.key}::${Prisma.raw(key.cast)}`;
  if (key.byIdOnly) return Prisma.sql`c.id ${beyond} ${cursor.id}::int`;
  if (!key.nullable) return Prisma.sql`(${column}, c.id) ${beyond} (${value}, ${cursor.id}::int)`;
  // Nulls come last in either direction: past a value, the rest of the values, then every null;
  // among the nulls, by id.
  if (cursor.key === null) return Prisma.sql`(${column} IS NULL AND c.id ${beyond} ${cursor.id}::int)`;
  return Prisma.sql`(${column} ${beyond} ${value} OR (${column} = ${value} AND c.id ${beyond} ${cursor.id}::int) OR ${column} IS NULL)`;
}

/**
 * A statement over the caller's contracts `c`: the filters read the caller and their workspaces by
 * the authentication statement's names (AUTH_CTE); here they are the actor's, known since the
 * request was admitted.
 */
function asCallerSql(actor: Actor, body: (scoped: boolean) => Sql): Sql {
  const workspaces = visibleWorkspaceIds(actor);
  return Prisma.sql`WITH ${AUTH_CTE.user} AS (SELECT ${actor.kind === "user" ? actor.userId : null}::int AS id),
      ${AUTH_CTE.scope} AS (SELECT ${workspaces === null}::boolean AS all_ws, ${workspaces ?? []}::int[] AS ws)
    ${body(workspaces !== null)}`;
}

/** The file's columns of the contract `c` (its workspace `w`). */
const ROW_COLUMNS = Prisma.sql`c.id, c.name, c.state::text AS state, c.workspace_id, w.name AS workspace,
           c.lifecycle_state::text AS lifecycle_state, c.lifecycle_sub_state::text AS lifecycle_sub_state,
           to_char(COALESCE(c.start_date, c.signed_on), 'YYYY-MM-DD') AS start_date,
           to_char(c.period_end_date, 'YYYY-MM-DD') AS period_end_date, to_char(c.ends_on, 'YYYY-MM-DD') AS end_date,
           to_char(c.notice_deadline, 'YYYY-MM-DD') AS notice_deadline, c.renewals,
           ${Prisma.raw(isoTimeSql("c.created_at"))} AS created_time, ${Prisma.raw(isoTimeSql("c.updated_at"))} AS updated_time,
           (SELECT string_agg(p.name, '; ' ORDER BY p.id) FROM parties p WHERE p.contract_id = c.id AND NOT p.my_party) AS counterparties`;

/** One batch of a keyset order: the rows of the list after `cursor` (from the start without one), at most `limit`. */
function batchSql(actor: Actor, query: TContractExportQuery, key: TKey, cursor: TCursor | null, limit: number): Sql {
  const { conditions } = contractFilterSql(query);
  const where = cursor ? [...conditions, afterCursorSql(key, cursor)] : conditions;
  return asCallerSql(
    actor,
    (scoped) => Prisma.sql`SELECT ${ROW_COLUMNS}, ${key.text} AS sort_key
      FROM ${AUTH_CTE.scope}, contracts c JOIN workspaces w ON w.id = c.workspace_id
     WHERE ${contractWhereSql(where, scoped)}
     ORDER BY ${contractOrderSql(query)}
     LIMIT ${limit}::int`,
  );
}

/**
 * A search's matches, their ids in the list's order (`contractOrderSql`), found (and ranked) once,
 * as bytes (4 a match, big-endian: an int[] became a JavaScript array, some 40 bytes a match).
 * A keyset batch found every match again from the GIN indexes (a search matching 70,000 contracts:
 * 460 ms a batch of 1,000, 70 times), and ranked them again by `relevance`, which is no key an index
 * holds: a contract whose rank rose past the cursor while the file was read was left out.
 */
function matchedIdsSql(actor: Actor, query: TContractExportQuery): Sql {
  const { conditions } = contractFilterSql(query);
  return asCallerSql(
    actor,
    (scoped) => Prisma.sql`SELECT COALESCE(string_agg(int4send(c.id), ''::bytea ORDER BY ${contractOrderSql(query)}), ''::bytea) AS ids
      FROM ${AUTH_CTE.scope}, contracts c WHERE ${contractWhereSql(conditions, scoped)}`,
  );
}

/**
 * The rows of `ids` in their order, each still in the caller's workspaces (the actor's, as the
 * request was admitted) and one the query keeps (every filter, and `q` by the contract's own search
 * document): one changed, moved or deleted since they were found is left out, never shown.
 */
function matchedBatchSql(actor: Actor, query: TContractExportQuery, ids: number[]): Sql {
  const { conditions } = contractFilterSql({ ...query, q: undefined });
  const matches = searchMatchesContractSql(query.q ?? "");
  return asCallerSql(
    actor,
    (scoped) => Prisma.sql`SELECT ${ROW_COLUMNS}
      FROM ${AUTH_CTE.scope}, unnest(${ids}::int[]) WITH ORDINALITY k(id, ord)
      JOIN contracts c ON c.id = k.id JOIN workspaces w ON w.id = c.workspace_id
     WHERE ${contractWhereSql([...conditions, matches], scoped)}
     ORDER BY k.ord`,
  );
}

const cell = (value: string | number | null): string => (value === null ? "" : typeof value === "number" ? String(value) : neutralizeFormula(value));

export interface ContractsCsvOptions {
  db: PrismaClient;
  actor: Actor;
  query: TContractExportQuery;
  /** Rows per statement (tests make it small). */
  batchRows?: number;
}

/**
 * The CSV as a byte stream: a UTF-8 byte order mark (so spreadsheets read the names right), the
 * header row, then the rows, CRLF line ends (RFC 4180). The first batch is read before the stream
 * is made: a statement PostgreSQL refuses (a time it cannot hold) is then the API's 4xx, not a 200
 * cut short. Each later batch runs only when the reader pulls; one that fails ends the stream with
 * an error, so a download never looks complete when it is not.
 */
export async function contractsCsvStream({ db, actor, query, batchRows = CSV_BATCH_ROWS }: ContractsCsvOptions): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const text = (records: string[][]) => encoder.encode(stringify(records, { record_delimiter: "windows" }));
  const next = query.q === undefined ? keysetBatches(db, actor, query, keyOf(query), batchRows) : await searchBatches(db, actor, query, batchRows);
  let first: TCsvRow[] | null | undefined = await next();
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode("\uFEFF"));
        controller.enqueue(text([[...CONTRACT_CSV_COLUMNS]]));
      },
      async pull(controller) {
        const rows = first === undefined ? await next() : first;
        first = undefined;
        if (rows === null) controller.close();
        else controller.enqueue(text(rows.map((row) => CONTRACT_CSV_COLUMNS.map((column) => cell(row[column])))));
      },
    },
    // Nothing is read ahead: the next batch waits for the reader.
    { highWaterMark: 0 },
  );
}

/** Each call the next batch of rows (never empty), or null after the last. */
type TBatches = () => Promise<TCsvRow[] | null>;

/** A keyset order's batches: each after the last row of the one before. */
function keysetBatches(db: PrismaClient, actor: Actor, query: TContractExportQuery, key: TKey, batchRows: number): TBatches {
  let cursor: TCursor | null = null;
  let done = false;
  return async () => {
    if (done) return null;
    const rows = await db.$queryRaw<TKeysetRow[]>(batchSql(actor, query, key, cursor, batchRows));
    done = rows.length < batchRows;
    if (rows.length === 0) return null;
    const last = rows[rows.length - 1]!;
    cursor = { key: last.sort_key, id: last.id as number };
    return rows;
  };
}

/** A search's batches: its matches found once (their ids, 4 bytes each), then their rows `batchRows` ids at a time. */
async function searchBatches(db: PrismaClient, actor: Actor, query: TContractExportQuery, batchRows: number): Promise<TBatches> {
  const [{ ids: found }] = await db.$queryRaw<[{ ids: Uint8Array }]>(matchedIdsSql(actor, query));
  const ids = new DataView(found.buffer, found.byteOffset, found.byteLength);
  const count = ids.byteLength / 4;
  let at = 0;
  return async () => {
    while (at < count) {
      const batch = Array.from({ length: Math.min(batchRows, count - at) }, (_, i) => ids.getInt32((at + i) * 4));
      const rows = await db.$queryRaw<TCsvRow[]>(matchedBatchSql(actor, query, batch));
      at += batch.length;
      if (rows.length > 0) return rows;
    }
    return null;
  };
}
