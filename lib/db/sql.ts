// Writing SQL: the fragments statements are built from, and the names the authentication's statement
// shares with what runs inside it.
//
// Statements are Prisma's tagged templates (`Prisma.sql`): a value written `${value}` is always a
// parameter, numbered `$n` where the template is put together, and SQL that code writes (names,
// the JSON writers below) enters as `Prisma.raw` constants. A statement's text therefore depends on
// the code path that built it and on no value, so every request of one shape sends the same text,
// and its prepared name (`queryOne`, lib/db/query.ts) keeps hitting.
import { Prisma } from "@/lib/generated/prisma/client";

export type Sql = Prisma.Sql;

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
 * An integer the code chose (a limit of its own, never the caller's), written into the statement's
 * text: a plan made once for every run (a generic plan) estimates `LIMIT $1` at a tenth of the rows,
 * not at its value, and so costs more than the runs' own plans and is never chosen.
 */
export function integerSql(n: number): Sql {
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return Prisma.raw(String(n));
}

/**
 * What the caller asks for in the same statement as its authentication (docs/performance.md "One
 * round trip"): an SQL expression that may read the CTEs of `AUTH_CTE` to limit what it reads to
 * what the caller may see. Its value is handed to the route only once the caller is authenticated
 * (lib/api/auth.ts).
 */
export type TPreload = Sql;

/** How a preload is read back (`preloadFormOf`); unmarked: as one value. */
export interface TPreloadForm {
  /**
   * UTF-8 bytes (`listHeadSql`) read back in pieces (`PIECE_BYTES`), each escaped (`utf8BytesEscaped`)
   * in a row of its own, so `preloaded` is the pieces' texts (`bytesFromEscaped` joins them). A
   * list of 100 contracts is 150 KB: as one text it is one string in V8's large-object space,
   * which only a full collection frees, and one per request made the app collect its whole heap
   * every 50 requests (0.5 ms a request). Pieces are young strings, freed by the scavenger.
   */
  inPieces?: true;
}

const PRELOAD_FORMS = new WeakMap<TPreload, TPreloadForm>();

/** `preload`, marked as sent or read in `form` (added to what it was marked before). */
export function withPreloadForm(preload: TPreload, form: TPreloadForm): TPreload {
  PRELOAD_FORMS.set(preload, { ...PRELOAD_FORMS.get(preload), ...form });
  return preload;
}

/** How `preload` was marked (`withPreloadForm`). */
export const preloadFormOf = (preload: TPreload | undefined): TPreloadForm => (preload === undefined ? undefined : PRELOAD_FORMS.get(preload)) ?? {};

/** The bytes of one piece of an `inPieces` preload: escaped, at most 4 characters a byte, a piece stays a young string (< 128 KB). */
export const PIECE_BYTES = 24_576;

/**
 * The values an answer's JSON reads, by name: `base`, the origin its links are written under (no
 * trailing slash), and `me`, the acting user's id (NULL for the anonymous admin). A statement joins
 * `answerArgs(…)`, the one-row relation of them, so each is one parameter however often the JSON
 * reads it, and the JSON itself is text written once (a `Prisma.raw` constant) whatever the values.
 */
export const ANSWER_ARG = { base: "arg.base", me: "arg.me" } as const;

/** The relation `arg` of `ANSWER_ARG`: `me` a user's id, or an SQL expression (`ACTING_USER_ID`). */
export const answerArgs = (base: string, me: number | null | Sql): Sql => Prisma.sql`(SELECT ${base}::text AS base, ${me}::int AS me) arg`;

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
 * `tail` when given; the pieces of an `inPieces` preload are joined. One allocation: each text goes
 * into it as Latin-1 (each character is its byte, at memory speed) after what was decoded before,
 * its escapes are decoded in place (what is written never passes what is read), and the tail is
 * copied after them; a list's answer is 150 KB, and every copy of it is GC work.
 */
export function bytesFromEscaped(escaped: string | readonly string[], tail?: Uint8Array): Buffer<ArrayBuffer> {
  const pieces = typeof escaped === "string" ? [escaped] : escaped;
  let length = tail?.byteLength ?? 0;
  for (const piece of pieces) length += piece.length;
  const out = Buffer.allocUnsafe(length) as Buffer<ArrayBuffer>;
  let written = 0;
  for (const piece of pieces) written = decodeEscapedInto(out, written, piece);
  if (tail) {
    out.set(tail, written);
    written += tail.byteLength;
  }
  return out.subarray(0, written);
}

/** `text` (escape format) decoded into `out` from `start`; where its bytes end. */
function decodeEscapedInto(out: Buffer, start: number, text: string): number {
  const n = text.length;
  out.write(text, start, n, "latin1");
  const src = out.subarray(start, start + n);
  let at = src.indexOf(BACKSLASH);
  if (at === -1) return start + n;
  let written = 0;
  let from = 0;
  while (at !== -1) {
    if (written !== from) src.copyWithin(written, from, at);
    written += at - from;
    if (src[at + 1] === BACKSLASH) {
      src[written++] = BACKSLASH;
      from = at + 2;
    } else {
      const [a, b, c] = [src[at + 1]! - ZERO, src[at + 2]! - ZERO, src[at + 3]! - ZERO];
      if (!(a >= 0 && a <= 3 && b >= 0 && b <= 7 && c >= 0 && c <= 7)) throw new Error(`bytesFromEscaped: not bytea escape format at ${start + at}`);
      src[written++] = a * 64 + b * 8 + c;
      from = at + 4;
    }
    at = src.indexOf(BACKSLASH, from);
  }
  if (written !== from) src.copyWithin(written, from, n);
  return start + written + n - from;
}

/** The count of a list preload (`listHeadSql`, in pieces), read from its start (`{"count":N,["count_exact":B,]"data":`, plain ASCII). */
export function listCountOfEscaped(preloaded: unknown): number {
  const first: unknown = Array.isArray(preloaded) ? preloaded[0] : preloaded;
  const count = typeof first === "string" ? /^\{"count":(\d+),(?:"count_exact":(?:true|false),)?"data":/.exec(first.slice(0, 60)) : null;
  if (!count) throw new Error("a list preload is not the expected JSON");
  return Number(count[1]);
}

/** A timestamp as `isoTime` (lib/api/serializers/time.ts) writes it: UTC, milliseconds, `+00:00`; null stays null. */
export const isoTimeSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"+00:00"')`;

/**
 * The start of a list's answer, `{"count":N,"data":[…]`, written by PostgreSQL as its UTF-8 bytes:
 * the SQL expression, from the count's and the items' expressions, and `"count_exact":B` after the
 * count where `countExact` (a boolean expression) is given. A preload of it is sent `inPieces`
 * (`listPreload`).
 */
export function listHeadSql(count: Sql, items: Sql, countExact?: Sql): Sql {
  const exact = countExact ? Prisma.sql` || ',"count_exact":' || (${countExact})::text` : Prisma.empty;
  return Prisma.sql`convert_to('{"count":' || ${count}${exact} || ',"data":' || COALESCE(${items}, '[]')::text, 'UTF8')`;
}

/** A list's preload: `sql` reads a `listHeadSql` value, sent in pieces. */
export const listPreload = (sql: Sql): TPreload => withPreloadForm(sql, { inPieces: true });
