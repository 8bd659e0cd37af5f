// Plain SQL for the hottest reads, sent straight to the `pg` pool under Prisma (docs/performance.md
// "One round trip"): one statement answers who the caller is and the rows they asked for, and
// PostgreSQL assembles the rows as JSON, so a request costs one round trip and no ORM work. Every
// other query goes through Prisma. Rows come back in the shape Prisma would give (camelCase keys,
// `Date`s), so the same serializers answer either way; test/services/hot-reads.test.ts holds the
// two equal.
//
// Statements are Prisma's tagged templates (`Prisma.sql`): a value written `${value}` is always a
// parameter, numbered `$n` where the template is put together, and SQL that code writes (names,
// the JSON writers below) enters as `Prisma.raw` constants. A statement's text therefore depends on
// the code path that built it and on no value, so every request of one shape sends the same text,
// and its prepared name (below) keeps hitting.
import { createHash } from "node:crypto";
import type pg from "pg";
import { poolOf, sharesOneSession, type PrismaClient, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

export type Sql = Prisma.Sql;

// Statements are prepared once per connection (named), so PostgreSQL plans a hot statement once
// rather than on every request. Their texts come from code, never from input (every value is a
// parameter), so there are only as many as the code can build; the contracts list builds one per
// combination of filters, order and page form (128), and the participant update one per
// combination of attributes sent (hundreds are possible, few are used), so a client can use up
// the names of a process, after which new texts are sent unnamed. A text is found by its length and
// then compared: a string's hash reads every character (3 µs for a 3 KB statement built anew by each
// request), a comparison with the one text of that length is a memory compare.
const statementsByLength = new Map<number, { text: string; name: string }[]>();
let namedStatements = 0;
const MAX_NAMED = 500;

/** The statement's name and its first text (the same characters: pg compares them by identity first), or none. */
function namedStatement(text: string): { text: string; name: string } | undefined {
  const sameLength = statementsByLength.get(text.length);
  if (sameLength) {
    for (const known of sameLength) if (known.text === text) return known;
  }
  if (namedStatements >= MAX_NAMED) return undefined; // then planned each time: slower, never wrong
  const known = { text, name: `hot_${createHash("sha256").update(text).digest("hex").slice(0, 24)}` };
  namedStatements++;
  if (sameLength) sameLength.push(known);
  else statementsByLength.set(text.length, [known]);
  return known;
}

// The embedded database serves every connection in one session, where a name prepared by one
// connection already exists for the next (42P05): such a pool sends its statements unnamed. A pool
// made for it says so (`sharesOneSession`); another one is found out at its first 42P05.
const unnamedPools = new WeakSet<pg.Pool>();
const DUPLICATE_PREPARED_STATEMENT = "42P05";

const preparesOn = (pool: pg.Pool): boolean => !unnamedPools.has(pool) && !sharesOneSession(pool);

/**
 * The names the authentication's statement (lib/api/auth.ts) gives its CTEs, for the SQL that runs
 * inside it (`TPreload`): `scope(all_ws boolean, ws int[])`, all workspaces or these (`ws` is empty
 * when `all_ws`, so read it only behind `all_ws`); `usr(id, …)`, the acting user (no row for the
 * anonymous admin); `tok`, the API token. Both sides import them from here.
 */
export const AUTH_CTE = { token: Prisma.raw("tok"), user: Prisma.raw("usr"), scope: Prisma.raw("scope") } as const;

/** The caller may see the workspace of the row `alias` (reads `scope`). */
export const inScope = (alias: string): Sql => Prisma.sql`(${AUTH_CTE.scope}.all_ws OR ${Prisma.raw(alias)}.workspace_id = ANY(${AUTH_CTE.scope}.ws))`;

/** The acting user's id, or NULL for the anonymous admin (reads `usr`). */
export const ACTING_USER_ID: Sql = Prisma.sql`(SELECT id FROM ${AUTH_CTE.user})`;

/**
 * What the caller asks for in the same statement as its authentication (docs/performance.md "One
 * round trip"): an SQL expression that may read the CTEs of `AUTH_CTE` to limit what it reads to
 * what the caller may see. Its value is handed to the route only once the caller is authenticated
 * (lib/api/auth.ts).
 */
export type TPreload = Sql;

/**
 * An SQL expression over the row `alias` that a write statement gives back beside the row, chosen
 * by the caller (the API's answer, say): the service that writes never learns what it is.
 */
export type TRowSql = (alias: string) => Sql;

/**
 * The values an answer's JSON reads, by name: `base`, the origin its links are written under (no
 * trailing slash), and `me`, the acting user's id (NULL for the anonymous admin). A statement joins
 * `answerArgs(…)`, the one-row relation of them, so each is one parameter however often the JSON
 * reads it, and the JSON itself is text written once (a `Prisma.raw` constant) whatever the values.
 */
export const ANSWER_ARG = { base: "arg.base", me: "arg.me" } as const;

/** The relation `arg` of `ANSWER_ARG`: `me` a user's id, or an SQL expression (`ACTING_USER_ID`). */
export const answerArgs = (base: string, me: number | null | Sql): Sql => Prisma.sql`(SELECT ${base}::text AS base, ${me}::int AS me) arg`;

/** A statement's first row (or undefined), on the pool under `prisma`. */
export async function queryOne<T extends Record<string, unknown>>(prisma: PrismaClient, query: Sql): Promise<T | undefined> {
  const pool = poolOf(prisma);
  const { text, values } = query;
  if (preparesOn(pool)) {
    try {
      const named = namedStatement(text);
      return (await pool.query<T>(named ? { text: named.text, values, name: named.name } : { text, values })).rows[0];
    } catch (error) {
      if ((error as { code?: string }).code !== DUPLICATE_PREPARED_STATEMENT) throw error;
      unnamedPools.add(pool);
    }
  }
  return (await pool.query<T>(text, values)).rows[0];
}

/**
 * The `answer` column of a statement that reads one row just written (by its id), on `db`: inside
 * a transaction it sees that transaction's writes. `what` names the row in the error, since a row
 * written a moment ago that is gone is a bug, not a client's mistake.
 */
export async function answerOf(db: Tx, query: Sql, what: string): Promise<string> {
  const [row] = await db.$queryRaw<{ answer: string }[]>(query);
  if (!row) throw new Error(`${what} vanished before its answer was written`);
  return row.answer;
}

/**
 * `json_build_object('id', alias.id, 'partyId', alias.party_id, …)` from a map of Prisma field
 * names to columns, plus `more` fields given as SQL expressions (relations): SQL text that code
 * writes, with no values, for `Prisma.raw` constants. Maps are declared
 * `satisfies Record<keyof typeof SOME_SELECT, string>`, so a field added to a Prisma select without
 * its column here does not compile.
 */
export function jsonColumns(alias: string, columns: Record<string, string>, more: Record<string, string> = {}): string {
  const fields = [
    ...Object.entries(columns).map(([field, column]) => `'${field}', ${alias}.${column}`),
    ...Object.entries(more).map(([field, expression]) => `'${field}', ${expression}`),
  ];
  return `json_build_object(${fields.join(", ")})`;
}

/**
 * A JSON object as PostgreSQL writes it most compactly (`row_to_json`: no spaces, unlike
 * `json_build_object`'s `"key" : value`), keys in the order given, values SQL expressions (text
 * that code writes, with no values, for `Prisma.raw` constants). For JSON text that goes to the
 * client as it is.
 */
export function jsonRow(fields: Record<string, string>): string {
  return `(SELECT row_to_json(r) FROM (SELECT ${Object.entries(fields)
    .map(([key, expression]) => `${expression} AS "${key}"`)
    .join(", ")}) r)`;
}

/**
 * An SQL expression that sends the text `expr` as its UTF-8 bytes in bytea's `escape` format: pure
 * ASCII, where bytes ≥ 0x80 are written `\ooo` (octal) and a backslash `\\`. Read back with
 * `bytesFromEscaped`. For large JSON text that goes to the client as it is: node-postgres would
 * decode the text into a JavaScript string, and `Response` encode it again, and V8 does both
 * slowly (about 100 MB/s, byte by byte) for any string with a character above U+00FF, such as an
 * en dash in a contract's name: 2 ms of CPU per 110 KB list. ASCII is decoded and copied at memory speed.
 */
export function utf8BytesEscaped(expr: Sql): Sql {
  return Prisma.sql`encode(convert_to(${expr}, 'UTF8'), 'escape')`;
}

const BACKSLASH = 0x5c;
const ZERO = 0x30;

/**
 * The bytes written by `utf8BytesEscaped` (bytea's `escape` format), back as a Buffer, followed by
 * `tail` when given. One allocation: the text goes into it as Latin-1 (each character is its byte,
 * at memory speed), the escapes are decoded in place (what is written never passes what is read),
 * and the tail is copied after them; a list's answer is 110 KB, and every copy of it is GC work.
 */
export function bytesFromEscaped(text: string, tail?: Uint8Array): Buffer<ArrayBuffer> {
  const n = text.length;
  const out = Buffer.allocUnsafe(n + (tail?.byteLength ?? 0)) as Buffer<ArrayBuffer>;
  out.write(text, 0, n, "latin1");
  const src = out.subarray(0, n);
  let at = src.indexOf(BACKSLASH);
  if (at === -1) return tail ? (out.set(tail, n), out) : out;
  let written = 0;
  let from = 0;
  while (at !== -1) {
    if (written !== from) src.copyWithin(written, from, at);
    written += at - from;
    if (src[at + 1] === BACKSLASH) {
      out[written++] = BACKSLASH;
      from = at + 2;
    } else {
      const [a, b, c] = [src[at + 1]! - ZERO, src[at + 2]! - ZERO, src[at + 3]! - ZERO];
      if (!(a >= 0 && a <= 3 && b >= 0 && b <= 7 && c >= 0 && c <= 7)) throw new Error(`bytesFromEscaped: not bytea escape format at ${at}`);
      out[written++] = a * 64 + b * 8 + c;
      from = at + 4;
    }
    at = src.indexOf(BACKSLASH, from);
  }
  if (written !== from) src.copyWithin(written, from, n);
  written += n - from;
  if (tail) {
    out.set(tail, written);
    written += tail.byteLength;
  }
  return out.subarray(0, written);
}

/** The count of a `listHeadSql` value, read from its start (`{"count":N,"data":`, plain ASCII). */
export function listCountOfEscaped(preloaded: unknown): number {
  const count = typeof preloaded === "string" ? /^\{"count":(\d+),"data":/.exec(preloaded.slice(0, 40)) : null;
  if (!count) throw new Error("a list preload is not the expected JSON");
  return Number(count[1]);
}

/** A timestamp as `isoTime` (lib/api/serializers/time.ts) writes it: UTC, milliseconds, `+00:00`; null stays null. */
export const isoTimeSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"+00:00"')`;

/**
 * The start of a list's answer, `{"count":N,"data":[…]`, written by PostgreSQL and sent with
 * `utf8BytesEscaped`: the SQL expression, from the count's and the items' expressions.
 */
export function listHeadSql(count: Sql, items: Sql): Sql {
  return utf8BytesEscaped(Prisma.sql`'{"count":' || ${count} || ',"data":' || COALESCE(${items}, '[]')::text`);
}

/**
 * Turns the timestamps of rows assembled by PostgreSQL back into `Date`s, in place, as Prisma
 * gives them: every Prisma `DateTime` field of this schema is named `…At`, and no other field is.
 */
export function reviveDates<T>(value: T): T {
  if (Array.isArray(value)) {
    for (const item of value) reviveDates(item);
  } else if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const key in record) {
      const field = record[key];
      if (key.endsWith("At")) {
        if (typeof field === "string") record[key] = new Date(field);
      } else if (field !== null && typeof field === "object") {
        reviveDates(field);
      }
    }
  }
  return value;
}
