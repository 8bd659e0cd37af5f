// The database: the one client of the process, opened lazily (opening), the `pg` pool it runs on
// (the pool), the plain SQL statements sent straight to that pool (running a statement), and the
// helpers those statements are written with (writing SQL).
import { createHash } from "node:crypto";
import v8 from "node:v8";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { POOL_BUSY_MARK } from "@/lib/db/pool-busy-mark";
import { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";

// ——— Opening: one client per process, opened at first use ———

export type { PrismaClient } from "@/lib/generated/prisma/client";
/** The client inside `prisma.$transaction(async (tx) => …)`. */
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export type DatabaseStatus = "idle" | "starting" | "ready" | "failed";

interface DbState {
  status: DatabaseStatus;
  ready?: Promise<PrismaClient>;
  /** After a failed opening: no new attempt before this time (ms); the failure is answered meanwhile. */
  retryAt?: number;
  retryDelayMs?: number;
  prisma?: PrismaClient;
  error?: unknown;
  stopEmbedded?: () => Promise<void>;
  onOpen?: TOpenHook;
}

/**
 * Work to do on a freshly opened database before anyone gets the client. The opener owns no such
 * work itself: instrumentation.ts adds the demo seed for the embedded database (lib/db/seed/demo.ts).
 */
export type TOpenHook = (prisma: PrismaClient, info: { embedded: boolean }) => Promise<unknown>;

// One per process, kept on globalThis so Next's dev reloads reuse it instead of opening another
// database (an embedded one cannot be opened twice).
const g = globalThis as { __contractsDb?: DbState };
const state: DbState = (g.__contractsDb ??= { status: "idle" });

/** Waits between attempts to open the database after a failure: 0.5 s, doubling up to 8 s. */
const FIRST_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 8_000;

/**
 * The database is opened lazily, on the first call, never at import or during `next build`. After
 * a failure, calls answer that failure until a back-off has passed (every request, the background
 * jobs and readiness probes all ask), then the next call tries again.
 */
export function getPrisma(): Promise<PrismaClient> {
  if (state.prisma) return Promise.resolve(state.prisma);
  if (!state.ready && state.retryAt !== undefined && Date.now() < state.retryAt) return Promise.reject(state.error);
  state.ready ??= open().then(
    (prisma) => {
      state.prisma = prisma;
      state.status = "ready";
      state.retryAt = state.retryDelayMs = undefined;
      return prisma;
    },
    (error: unknown) => {
      // Let a later request try again (e.g. the server was still starting).
      state.status = "failed";
      state.error = error;
      state.ready = undefined;
      state.retryDelayMs = Math.min(MAX_RETRY_DELAY_MS, state.retryDelayMs === undefined ? FIRST_RETRY_DELAY_MS : state.retryDelayMs * 2);
      state.retryAt = Date.now() + state.retryDelayMs;
      throw error;
    },
  );
  return state.ready;
}

/** The client once the database is open (what `getPrisma` resolves to), without a promise; else undefined. */
export function readyPrisma(): PrismaClient | undefined {
  return state.prisma;
}

/** Sets the hook the next opening runs (one per process; kept across dev reloads like the client). */
export function onDatabaseOpen(hook: TOpenHook): void {
  state.onOpen = hook;
}

export function databaseStatus(): DatabaseStatus {
  return state.status;
}

async function open(): Promise<PrismaClient> {
  state.status = "starting";
  const { DATABASE_URL, PGLITE_DATA_DIR, EMBEDDED_DB_SOCKET_DIR } = env();
  const { applyMigrationsInChildProcess } = await import("@/lib/db/migrate");
  if (DATABASE_URL) {
    // Prisma's query compiler is WebAssembly (the schema engine too, but it runs in a child
    // process: lib/db/migrate.ts): keep it on V8's baseline compiler. Its optimizing tier
    // recompiled hot functions on background threads and left 30–40 MB of RSS behind, for nothing
    // measurable per request (query plans are cached). Not for the embedded database, whose
    // PostgreSQL is WebAssembly too and needs the fast code. See docs/performance.md, "Memory".
    v8.setFlagsFromString("--no-wasm-tier-up");
    // A server that does not answer fails here, cheaply, before a migration process is started.
    await checkReachable(DATABASE_URL);
    // In a child process: Prisma's schema engine never takes memory in this one (lib/db/migrate.ts).
    await applyMigrationsInChildProcess(DATABASE_URL);
    const prisma = createPrismaClient(DATABASE_URL, 10, { serverTimeouts: true });
    await state.onOpen?.(prisma, { embedded: false });
    return prisma;
  }
  const { startEmbeddedDatabase } = await import("@/lib/db/embedded");
  const embedded = await startEmbeddedDatabase(PGLITE_DATA_DIR, { socketDir: EMBEDDED_DB_SOCKET_DIR });
  state.stopEmbedded = embedded.stop;
  let prisma: PrismaClient | undefined;
  try {
    await applyMigrationsInChildProcess(embedded.url);
    prisma = createPrismaClient(embedded.url, 8, { oneSession: true });
    await state.onOpen?.(prisma, { embedded: true });
    return prisma;
  } catch (error) {
    // The next attempt opens the embedded database again: this one must be closed first (one
    // owner per data folder).
    await prisma?.$disconnect().catch(() => undefined);
    state.stopEmbedded = undefined;
    await embedded.stop().catch(() => undefined);
    throw error;
  }
}

/** Connects once and disconnects: rejects with the driver's error when the server does not answer. */
async function checkReachable(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  client.on("error", () => undefined); // a connection dropped after the check is of no interest
  try {
    await client.connect();
  } finally {
    await client.end().catch(() => undefined);
  }
}

// ——— The pool: the `pg` pool under the client, shared by Prisma and plain SQL ———

/**
 * Server-side time limits on PostgreSQL (never the embedded database, which runs one statement at
 * a time and has no other sessions to wait for): a request that would wait on a row lock longer
 * than LOCK_TIMEOUT_MS, or run a statement longer than STATEMENT_TIMEOUT_MS, fails fast and is
 * answered 503 `database_busy` with Retry-After, instead of hanging and failing later as something else.
 */
export const LOCK_TIMEOUT_MS = 5_000;
export const STATEMENT_TIMEOUT_MS = 15_000;

// On the client itself, under a registered symbol: Next's server bundles may hold this module more
// than once (instrumentation and routes), and each copy must find the pool of any client.
const POOL = Symbol.for("contracts-admin.pg-pool");

/** The `pg` pool a client made by `createPrismaClient` runs on (one pool: plain SQL and Prisma share its connections). */
export function poolOf(prisma: PrismaClient): pg.Pool {
  const pool = (prisma as unknown as { [POOL]?: pg.Pool })[POOL];
  if (!pool) throw new Error("poolOf: this Prisma client was not made by createPrismaClient");
  return pool;
}

const ONE_SESSION = Symbol.for("contracts-admin.one-session");

/**
 * Whether every connection of this pool is the same database session: the embedded database's
 * (PGlite serves its socket's connections in its one session). Statements there cannot be prepared
 * by name (`queryOne`, below).
 */
function sharesOneSession(pool: pg.Pool): boolean {
  return (pool as unknown as { [ONE_SESSION]?: boolean })[ONE_SESSION] === true;
}

export function createPrismaClient(connectionString: string, max = 10, { serverTimeouts = false, oneSession = false } = {}): PrismaClient {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5_000,
    ...(serverTimeouts ? { lock_timeout: LOCK_TIMEOUT_MS, statement_timeout: STATEMENT_TIMEOUT_MS } : {}),
  });
  markBusyTimeouts(pool, max);
  if (oneSession) Object.defineProperty(pool, ONE_SESSION, { value: true });
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: true }),
    // Transactions queue behind each other on the embedded database: wait for a turn.
    transactionOptions: { maxWait: 15_000, timeout: 15_000 },
  });
  Object.defineProperty(prisma, POOL, { value: pool });
  return prisma;
}

type ConnectCallback = (err: Error | undefined, client?: pg.PoolClient, release?: (err?: Error) => void) => void;

/**
 * pg reports "timeout exceeded when trying to connect" both when the server does not answer and
 * when every pooled connection stayed busy. The second is marked with POOL_BUSY_MARK (read by
 * lib/api/errors.ts), so the client hears "busy", not "database not reachable".
 */
function markBusyTimeouts(pool: pg.Pool, max: number): void {
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
  const mark = (waitedForBusy: boolean, error: Error | undefined) => {
    if (waitedForBusy && error && /timeout exceeded when trying to connect/.test(error.message)) {
      error.message += ` (${POOL_BUSY_MARK})`;
    }
    return error;
  };
  (pool as { connect: unknown }).connect = (callback?: ConnectCallback) => {
    const waitedForBusy = pool.totalCount >= max && pool.idleCount === 0;
    if (callback) return connect((err, client, release) => callback(mark(waitedForBusy, err), client, release));
    return connect()!.catch((error: Error) => {
      throw mark(waitedForBusy, error);
    });
  };
}

// ——— Running a statement: plain SQL on the pool ———
//
// Plain SQL for the hottest reads, sent straight to the `pg` pool under Prisma (docs/performance.md
// "One round trip"): one statement answers who the caller is and the rows they asked for, and
// PostgreSQL assembles the rows as JSON, so a request costs one round trip and no ORM work. Every
// other query goes through Prisma. Rows come back in the shape Prisma would give (camelCase keys,
// `Date`s), so the same serializers answer either way; test/services/hot-reads.test.ts holds the
// two equal.

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

// ——— Writing SQL: the fragments statements are built from ———
//
// Statements are Prisma's tagged templates (`Prisma.sql`): a value written `${value}` is always a
// parameter, numbered `$n` where the template is put together, and SQL that code writes (names,
// the JSON writers below) enters as `Prisma.raw` constants. A statement's text therefore depends on
// the code path that built it and on no value, so every request of one shape sends the same text,
// and its prepared name (`queryOne`, above) keeps hitting.

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
