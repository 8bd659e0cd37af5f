// Fills an empty database from a backup's lines (lib/db/backup/format.ts). First the migrations the
// backup was taken at that the target lacks (Prisma's schema engine, as the app's start applies
// them); then, in ONE transaction, every row (the `_prisma_migrations` history as the source
// recorded it included), the foreign keys checked, the sequences set. A refusal or a failure there
// (a tampered or cut file is found at the latest by its trailer) rolls the rows back; db:restore
// reads a file through once (verifyBackup) before it changes anything.
//
// Rows are copied exactly, derived tables included: the triggers (the contract counts' deltas, the
// audit chain's hash and head, the contract's PDF row) are disabled for the transaction, or they
// would add to what the backup already holds. Foreign keys are dropped and added again after the
// rows (which checks every row), so a row pointing at a later one of its own table (a delegated
// participant) restores too. Both need only the ownership of the tables the migrations created (a
// table's sequences, restarted below, are its owner's).
import { createHash } from "node:crypto";
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { isChecksumOf, MIGRATIONS_DIR, readShippedMigrations, type TShippedMigration } from "../migration-files.ts";
import { applyMigrations } from "../schema-engine.ts";
import {
  BackupRefusal,
  RestoreFailedAfterSchema,
  MAX_HEADER_BYTES,
  MAX_LINE_BYTES,
  ident,
  parseBackupJson,
  parseHeader,
  parseTableStart,
  MigrationsFailed,
  readAppliedMigrations,
  readOwnedSequences,
  readTables,
  setExactTextSession,
  type TBackupHeader,
  type TTableStart,
} from "./format.ts";

/** Base64 as db:backup writes it (Buffer.from would decode anything, dropping what is not). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** An INSERT holds at most this many values (PostgreSQL's limit is 65,535 parameters) or bytes. */
const MAX_PARAMS = 20_000;
const MAX_BATCH_BYTES = 8 * 1024 * 1024;

/**
 * The lines of a stream (gunzipped already), each at most `MAX_LINE_BYTES` (the first at most
 * `MAX_HEADER_BYTES`), without their newline. A last line without a newline is yielded marked.
 */
export async function* boundedLines(input: AsyncIterable<Buffer>): AsyncGenerator<{ line: Buffer; complete: boolean }> {
  let parts: Buffer[] = [];
  let size = 0;
  let first = true;
  const limit = () => (first ? MAX_HEADER_BYTES : MAX_LINE_BYTES);
  for await (const chunk of input) {
    let from = 0;
    for (;;) {
      const at = chunk.indexOf(10, from);
      if (at === -1) {
        size += chunk.length - from;
        if (size > limit()) throw new BackupRefusal(`This file is not a backup of this app (a line is longer than ${limit()} bytes).`);
        if (from < chunk.length) parts.push(chunk.subarray(from));
        break;
      }
      size += at - from;
      if (size > limit()) throw new BackupRefusal(`This file is not a backup of this app (a line is longer than ${limit()} bytes).`);
      parts.push(chunk.subarray(from, at));
      yield { line: parts.length === 1 ? parts[0]! : Buffer.concat(parts, size), complete: true };
      first = false;
      parts = [];
      size = 0;
      from = at + 1;
    }
  }
  if (size > 0) yield { line: Buffer.concat(parts, size), complete: false };
}

/** This code's migrations by name (migration-files.ts). */
async function codeMigrations(): Promise<Map<string, TShippedMigration>> {
  return new Map((await readShippedMigrations()).map((m) => [m.name, m]));
}

export interface TRestoreSummary {
  header: TBackupHeader;
  rows: number;
  /** This code's migrations newer than the backup's, left for `npm run db:migrate` or the app's start. */
  later: string[];
}

type TBackupItem = { kind: "table"; start: TTableStart; rows: number } | { kind: "row"; values: (string | Buffer | null)[] };

/**
 * Reads a backup's lines after its header, checking everything: each table's start line, exactly
 * the header's count of rows per table (never more are read), each row's shape, the trailer's
 * checksum over every byte before it, nothing after it. Yields tables and rows as they come.
 */
async function* backupItems(lines: AsyncGenerator<{ line: Buffer; complete: boolean }>, header: TBackupHeader, headerLine: Buffer): AsyncGenerator<TBackupItem> {
  const hash = createHash("sha256").update(headerLine).update("\n");
  const next = async () => {
    const r = await lines.next();
    if (r.done || !r.value.complete) throw new BackupRefusal("This backup is truncated: it ends before its last line.");
    hash.update(r.value.line).update("\n");
    return r.value.line;
  };
  for (const expected of header.tables) {
    const start = parseTableStart(parseJson(await next()), expected.name);
    yield { kind: "table", start, rows: expected.rows };
    const width = start.columns.length;
    const isBytes = start.columns.map((c) => start.base64.includes(c));
    for (let i = 0; i < expected.rows; i++) {
      const row = parseJson(await next());
      if (!Array.isArray(row) || row.length !== width) throw new BackupRefusal(`This file is not a backup of this app (a row of ${expected.name} is malformed).`);
      const values = row.map((v: unknown, c) => {
        if (v === null) return null;
        if (typeof v !== "string" || (isBytes[c] && !BASE64.test(v))) throw new BackupRefusal(`This file is not a backup of this app (a row of ${expected.name} is malformed).`);
        return isBytes[c] ? Buffer.from(v, "base64") : v;
      });
      yield { kind: "row", values };
    }
  }
  const digest = hash.digest("hex");
  const r = await lines.next();
  if (r.done || !r.value.complete) throw new BackupRefusal("This backup is truncated: it ends before its last line.");
  const trailer = parseJson(r.value.line) as { end?: unknown; sha256?: unknown } | null;
  if (trailer?.end !== true) throw new BackupRefusal("This file is not a backup of this app (it holds more rows than its header counts).");
  if (trailer.sha256 !== digest) throw new BackupRefusal("This backup is corrupt: its checksum does not match its contents.");
  if (!(await lines.next()).done) throw new BackupRefusal("This file is not a backup of this app (something follows its end).");
}

async function readHeader(lines: AsyncGenerator<{ line: Buffer; complete: boolean }>): Promise<{ header: TBackupHeader; headerLine: Buffer }> {
  const r = await lines.next();
  if (r.done) throw new BackupRefusal("This file is not a backup of this app (it is empty).");
  return { header: parseHeader(r.value.line), headerLine: r.value.line };
}

/** The backup's migrations must all be this code's, unchanged; answers this code's later ones. */
async function checkMigrations(header: TBackupHeader) {
  const code = await codeMigrations();
  for (const m of header.migrations) {
    const mine = code.get(m.name);
    if (!mine) throw new BackupRefusal(`This backup is from a newer schema (migration ${m.name} is unknown to this version of the app): restore it with the version that made it.`);
    if (!isChecksumOf(mine, m.checksum)) throw new BackupRefusal(`This backup was taken with a different migration ${m.name} than this version of the app has: restore it with the version that made it.`);
  }
  const names = header.migrations.map((m) => m.name);
  // The first of this code's, in its order: a database is only ever migrated that way.
  const codeNames = [...code.keys()];
  if (names.some((name, i) => codeNames[i] !== name)) {
    throw new BackupRefusal("This backup's migrations are not this app's first ones in order: it was not taken by this app, or it was altered.");
  }
  return { names, later: codeNames.slice(names.length) };
}

/** Reads a whole backup without a database: every check a restore makes of the file. */
export async function verifyBackup(input: AsyncIterable<Buffer>): Promise<{ header: TBackupHeader; rows: number }> {
  const lines = boundedLines(input);
  try {
    const { header, headerLine } = await readHeader(lines);
    await checkMigrations(header);
    let rows = 0;
    for await (const item of backupItems(lines, header, headerLine)) if (item.kind === "row") rows++;
    return { header, rows };
  } finally {
    await lines.return(undefined).catch(() => undefined);
  }
}

/**
 * Restores the backup `input` (its uncompressed lines) into the database at `url`, through `client`
 * (connected to it). The target must be empty: no table of schema `public` but `_prisma_migrations`
 * may hold a row, and the migrations it has applied must be the first of the backup's. First the
 * backup's migrations it lacks are applied, by Prisma's schema engine as the app's start would (each
 * in its own transaction: PostgreSQL refuses an enum value added in the same transaction); then
 * every row in one transaction, which a failure or a refusal rolls back. Throws `BackupRefusal`.
 */
export async function restoreBackup({ client, url, input }: { client: pg.ClientBase; url: string; input: AsyncIterable<Buffer> }): Promise<TRestoreSummary> {
  const lines = boundedLines(input);
  try {
    const { header, headerLine } = await readHeader(lines);
    const { names, later } = await checkMigrations(header);
    await refuseUnlessEmpty(client, names);
    const applied = new Set((await readAppliedMigrations(client)).map((m) => m.name));
    const migrating = names.some((name) => !applied.has(name));
    if (migrating) await applyMigrationsUpTo(url, names).catch((error: unknown) => Promise.reject(new MigrationsFailed(error)));
    try {
      return { header, rows: await restoreRows(client, header, backupItems(lines, header, headerLine), names), later };
    } catch (error) {
      throw migrating ? new RestoreFailedAfterSchema(error) : error;
    }
  } finally {
    await lines.return(undefined).catch(() => undefined);
  }
}

/** Applies this code's migrations named (the backup's), and none after them, with Prisma's schema engine. */
async function applyMigrationsUpTo(url: string, names: string[]): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "contracts-restore-"));
  try {
    for (const name of names) await cp(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
    await cp(path.join(MIGRATIONS_DIR, "migration_lock.toml"), path.join(dir, "migration_lock.toml")).catch(() => undefined);
    await applyMigrations(url, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function restoreRows(client: pg.ClientBase, header: TBackupHeader, items: AsyncGenerator<TBackupItem>, names: string[]): Promise<number> {
  await setExactTextSession(client);
  await client.query("BEGIN");
  let committed = false;
  try {
    await client.query("SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0");
    await refuseUnlessEmpty(client, names);
    // The history is the source's own rows (ids, checksums, times), which the backup holds.
    await client.query(`DELETE FROM "_prisma_migrations"`);
    const tables = new Map((await readTables(client)).map((t) => [t.name, t]));
    const restoring = header.tables.map((t) => t.name);
    const missing = [...tables.keys()].filter((name) => !restoring.includes(name));
    const unknown = restoring.filter((name) => !tables.has(name));
    if (missing.length || unknown.length) {
      throw new BackupRefusal(`This backup's tables do not match its migrations' schema (${[...missing.map((n) => `missing ${n}`), ...unknown.map((n) => `unknown ${n}`)].join(", ")}).`);
    }
    const { rows: triggered } = await client.query<{ name: string }>(`
      SELECT DISTINCT c.relname::text AS name FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT g.tgisinternal`);
    for (const { name } of triggered) await client.query(`ALTER TABLE ${ident(name)} DISABLE TRIGGER USER`);
    // A partition's copy of its table's key (conparentid) goes and comes back with the table's.
    const { rows: foreignKeys } = await client.query<{ table: string; name: string; def: string }>(`
      SELECT c.relname::text AS table, f.conname::text AS name, pg_get_constraintdef(f.oid) AS def
      FROM pg_constraint f JOIN pg_class c ON c.oid = f.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND f.contype = 'f' AND f.conparentid = 0 ORDER BY c.relname, f.conname`);
    for (const fk of foreignKeys) await client.query(`ALTER TABLE ${ident(fk.table)} DROP CONSTRAINT ${ident(fk.name)}`);

    let total = 0;
    let table: { name: string; width: number; head: string } | null = null;
    let batch: unknown[] = [];
    let batchBytes = 0;
    const flush = async () => {
      if (!table || batch.length === 0) return;
      const { width, head } = table;
      const tuples: string[] = [];
      for (let r = 0; r < batch.length / width; r++) tuples.push(`(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(", ")})`);
      await client.query(head + tuples.join(", "), batch);
      batch = [];
      batchBytes = 0;
    };
    for await (const item of items) {
      if (item.kind === "table") {
        await flush();
        const { start } = item;
        const target = new Map(tables.get(start.table)!.columns.map((c) => [c.name, c]));
        if (start.columns.length !== target.size || start.columns.some((c) => target.get(c)?.bytea !== start.base64.includes(c))) {
          throw new BackupRefusal(`This backup's table ${start.table} does not match its migrations' schema (its columns differ).`);
        }
        table = {
          name: start.table,
          width: start.columns.length,
          head: `INSERT INTO ${ident(start.table)} (${start.columns.map(ident).join(", ")}) OVERRIDING SYSTEM VALUE VALUES `,
        };
        continue;
      }
      for (const v of item.values) {
        batch.push(v);
        batchBytes += v === null ? 1 : v.length;
      }
      total++;
      if (batch.length + table!.width > MAX_PARAMS || batchBytes > MAX_BATCH_BYTES) await flush();
    }
    await flush();

    // The history restored is the one the header names, checksums too (the schema is that of the
    // header's migrations), and holds no unfinished migration.
    const { rows: unfinished } = await client.query(`SELECT 1 FROM "_prisma_migrations" WHERE finished_at IS NULL AND rolled_back_at IS NULL`);
    const sorted = (ms: { name: string; checksum: string }[]) => JSON.stringify([...ms].sort((a, b) => a.name.localeCompare(b.name)).map((m) => [m.name, m.checksum]));
    if (unfinished.length > 0 || sorted(await readAppliedMigrations(client)) !== sorted(header.migrations)) {
      throw new BackupRefusal("This backup's migration history does not match the migrations its header names.");
    }
    for (const fk of foreignKeys) await client.query(`ALTER TABLE ${ident(fk.table)} ADD CONSTRAINT ${ident(fk.name)} ${fk.def}`);
    for (const { name } of triggered) await client.query(`ALTER TABLE ${ident(name)} ENABLE TRIGGER USER`);
    // The sequences: the source's value, or past the largest id. setval alone is not undone by a
    // rollback (a failure after some were set, a value out of a later one's range, left them set),
    // so each is restarted first: ALTER SEQUENCE … RESTART gives it new storage, which a rollback
    // discards (as it does TRUNCATE … RESTART IDENTITY's), and setval writes there.
    const values = new Map(header.sequences.map((s) => [s.name, s]));
    for (const s of await readOwnedSequences(client)) {
      const source = values.get(s.name);
      const { rows } = await client.query<{ n: string }>(
        `SELECT greatest($1::bigint, (SELECT max(${ident(s.column)})::bigint FROM ${ident(s.table)}))::text AS n`,
        [source ? (source.called ? source.value : String(BigInt(source.value) - 1n)) : "0"],
      );
      const n = rows[0]!.n;
      if (BigInt(n) < 1n) continue;
      await client.query(`ALTER SEQUENCE ${ident(s.name)} RESTART`);
      await client.query(`SELECT setval($1::regclass, $2::bigint, true)`, [ident(s.name), n]);
    }
    await client.query("COMMIT");
    committed = true;
    return total;
  } finally {
    if (!committed) await client.query("ROLLBACK").catch(() => undefined);
  }
}

const parseJson = (line: Buffer): unknown => parseBackupJson(line, "a line is not JSON");

/**
 * Refuses a target that holds data: any row in a table of schema `public` other than the migration
 * history, or migrations applied that are not the first of the backup's.
 */
async function refuseUnlessEmpty(client: pg.ClientBase, backupNames: string[]): Promise<void> {
  const { rows: tables } = await client.query<{ name: string }>(`
    SELECT c.relname::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> '_prisma_migrations' ORDER BY c.relname`);
  for (const { name } of tables) {
    const { rowCount } = await client.query(`SELECT 1 FROM ${ident(name)} LIMIT 1`);
    if (rowCount) throw new BackupRefusal(`The target database is not empty (table ${name} has rows): restore only into an empty database.`);
  }
  // A rule of the target's own would drop rows (DO INSTEAD NOTHING) or copy them elsewhere (DO ALSO),
  // the keys and secrets among them; the migrations make none (a view's own is not listed here).
  const { rows: rules } = await client.query<{ name: string }>(`SELECT tablename::text AS name FROM pg_rules WHERE schemaname = 'public' ORDER BY tablename LIMIT 1`);
  if (rules[0]) throw new BackupRefusal(`The target database is not as the migrations make it (table ${rules[0].name} has a rule): restore only into an empty database.`);
  const applied = (await readAppliedMigrations(client)).map((m) => m.name);
  if (applied.some((name, i) => backupNames[i] !== name)) {
    throw new BackupRefusal("The target database has migrations this backup was not taken at: restore into a new, empty database.");
  }
}
