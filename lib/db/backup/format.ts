// The backup file (npm run db:backup / db:restore / db:move; README.md "Backup, restore
// and moving to PostgreSQL"): gzip'd UTF-8 lines, each a JSON value:
//   1. the header: format, version, created time, the migrations applied (name and checksum), every
//      table with its row count, every sequence with its value;
//   2. per table, in foreign-key order (parents first): {"table", "columns", "base64"}, then one
//      line per row, in primary-key order: a JSON array of the columns' values, each null or a
//      string: PostgreSQL's text form of the value (session in UTC, ISO dates), bytea in base64;
//   3. the trailer {"end": true, "sha256"}: SHA-256 of every byte before it.
// Everything read from a file is bounded: the line length, the header's sizes, the rows per table
// (at most the header's count, and exactly it by the end).
import pg from "pg";

export const BACKUP_FORMAT = "contracts-admin-backup";
export const BACKUP_VERSION = 1;
/** No line may be longer (a file chunk's row is ~350 KB in base64; a contract's text is bounded by the API's 1 MiB body). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
export const MAX_HEADER_BYTES = 4 * 1024 * 1024;
const MAX_TABLES = 1_000;
const MAX_COLUMNS = 1_600; // PostgreSQL's own limit
const MAX_MIGRATIONS = 10_000;
const MAX_NAME = 255;

/** A refusal: one sentence for the operator; nothing was changed. */
export class BackupRefusal extends Error {}

/**
 * A restore that failed after it had applied the backup's migrations to the empty target (each
 * commits on its own): no row was restored, and the target keeps that empty schema, which a restore
 * accepts. `cause`: the refusal or failure.
 */
export class RestoreFailedAfterSchema extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/**
 * Applying the backup's migrations to the target failed (a migration of its own in the way, the
 * process stopped midway): the target may hold part of the schema, and a failed migration that
 * stops the next run. `cause`: the schema engine's error.
 */
export class MigrationsFailed extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

export interface TBackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  created: string;
  migrations: { name: string; checksum: string }[];
  tables: { name: string; rows: number }[];
  sequences: { name: string; value: string; called: boolean }[];
}

export interface TTableStart {
  table: string;
  columns: string[];
  base64: string[];
}

/** A name the messages may print: no control or format character (a terminal's escapes, a direction override). */
const isName = (v: unknown): v is string => typeof v === "string" && v.length > 0 && v.length <= MAX_NAME && !/[\p{Cc}\p{Cf}]/u.test(v);

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** The deepest a backup's JSON nests: the header, its lists (of migrations, tables, sequences), their items. */
const MAX_JSON_DEPTH = 3;

/**
 * A line's JSON value; `notJson` says why when it is not JSON. Refused before it is parsed when it
 * nests deeper than a backup's lines do: JSON.parse builds every level of `[[[[…`, and a line of
 * 64 MB of them (a 63 KB gzip'd file) cost gigabytes before anything else read it.
 */
export function parseBackupJson(line: Buffer, notJson: string): unknown {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const b = line[i]!;
    // Bytes, not characters: no byte of a UTF-8 sequence is an ASCII one.
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) throw new BackupRefusal("This file is not a backup of this app (a line nests deeper than a backup's lines do).");
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  try {
    return JSON.parse(line.toString("utf8"));
  } catch {
    throw new BackupRefusal(`This file is not a backup of this app (${notJson}).`);
  }
}

/** The header of a file, checked field by field; anything else is "not a backup". */
export function parseHeader(line: Buffer): TBackupHeader {
  const notBackup = (why: string) => new BackupRefusal(`This file is not a backup of this app (${why}).`);
  const v = parseBackupJson(line, "its first line is not its header") as Record<string, unknown>;
  if (typeof v !== "object" || v === null || v.format !== BACKUP_FORMAT) throw notBackup("its first line is not its header");
  if (typeof v.version !== "number" || !Number.isInteger(v.version)) throw notBackup("no format version");
  if (v.version > BACKUP_VERSION) throw new BackupRefusal(`This backup is in format version ${v.version}, newer than this app reads (${BACKUP_VERSION}): restore it with the version of the app that made it.`);
  const { migrations, tables, sequences } = v;
  const okMigrations =
    Array.isArray(migrations) &&
    migrations.length <= MAX_MIGRATIONS &&
    migrations.every((m: { name?: unknown; checksum?: unknown }) => isName(m?.name) && typeof m.checksum === "string" && /^[0-9a-f]{64}$/.test(m.checksum));
  const okTables =
    Array.isArray(tables) &&
    tables.length <= MAX_TABLES &&
    tables.every((t: { name?: unknown; rows?: unknown }) => isName(t?.name) && Number.isSafeInteger(t.rows) && (t.rows as number) >= 0);
  const okSequences =
    Array.isArray(sequences) &&
    sequences.length <= MAX_TABLES * 4 &&
    sequences.every((s: { name?: unknown; value?: unknown; called?: unknown }) => isName(s?.name) && typeof s.value === "string" && /^-?\d{1,19}$/.test(s.value) && typeof s.called === "boolean");
  if (!okMigrations || !okTables || !okSequences || typeof v.created !== "string" || !ISO_TIME.test(v.created)) throw notBackup("its header is malformed");
  if (new Set((tables as { name: string }[]).map((t) => t.name)).size !== tables.length) throw notBackup("its header names a table twice");
  return v as unknown as TBackupHeader;
}

/** A table's first line, checked against the header's table expected next. */
export function parseTableStart(value: unknown, expected: string): TTableStart {
  const t = value as Partial<TTableStart>;
  const ok =
    typeof t === "object" &&
    t !== null &&
    t.table === expected &&
    Array.isArray(t.columns) &&
    t.columns.length > 0 &&
    t.columns.length <= MAX_COLUMNS &&
    t.columns.every(isName) &&
    new Set(t.columns).size === t.columns.length &&
    Array.isArray(t.base64) &&
    t.base64.every((c) => t.columns!.includes(c));
  if (!ok) throw new BackupRefusal(`This file is not a backup of this app (table ${expected}'s start is malformed).`);
  return t as TTableStart;
}

/** `"name"`, quoted for SQL (names come from the database's catalog, never from a file alone). */
export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Session settings both ends use, so every value's text form is exact and means the same:
 * timestamps in UTC with ISO dates, floats with every digit, intervals in PostgreSQL's style.
 */
export async function setExactTextSession(client: pg.ClientBase): Promise<void> {
  await client.query("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'postgres'; SET extra_float_digits = 3");
}

export interface TTableInfo {
  name: string;
  /** Stored columns (generated ones are left out: the database computes them). */
  columns: { name: string; bytea: boolean }[];
  primaryKey: string[];
  /** Tables this one's foreign keys point to (itself left out). */
  parents: string[];
}

/** The tables of schema `public`, parents before children (ties by name), `_prisma_migrations` first. */
export async function readTables(client: pg.ClientBase): Promise<TTableInfo[]> {
  const { rows } = await client.query<{ name: string; columns: { name: string; bytea: boolean }[]; pk: string[] | null; parents: string[] | null }>(`
    SELECT c.relname::text AS name,
      (SELECT json_agg(json_build_object('name', a.attname, 'bytea', a.atttypid = 'bytea'::regtype) ORDER BY a.attnum)
         FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '') AS columns,
      (SELECT array_agg(a.attname::text ORDER BY k.i) FROM pg_index x
         CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, i)
         JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
         WHERE x.indrelid = c.oid AND x.indisprimary) AS pk,
      (SELECT array_agg(DISTINCT p.relname::text) FROM pg_constraint f JOIN pg_class p ON p.oid = f.confrelid
         WHERE f.conrelid = c.oid AND f.contype = 'f' AND f.confrelid <> c.oid) AS parents
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    ORDER BY c.relname`);
  const byName = new Map(rows.map((r) => [r.name, r]));
  const ordered: TTableInfo[] = [];
  const placed = new Set<string>();
  const visit = (name: string, path: Set<string>) => {
    if (placed.has(name) || path.has(name)) return;
    const r = byName.get(name);
    if (!r) return;
    path.add(name);
    for (const parent of [...(r.parents ?? [])].sort()) visit(parent, path);
    placed.add(name);
    ordered.push({ name, columns: r.columns ?? [], primaryKey: r.pk ?? [], parents: r.parents ?? [] });
  };
  if (byName.has("_prisma_migrations")) visit("_prisma_migrations", new Set());
  for (const r of rows) visit(r.name, new Set());
  return ordered;
}

/** Sequences owned by a column of a table in `public` (serial and identity columns). */
export async function readOwnedSequences(client: pg.ClientBase): Promise<{ name: string; table: string; column: string }[]> {
  const { rows } = await client.query<{ name: string; table: string; column: string }>(`
    SELECT s.relname::text AS name, t.relname::text AS table, a.attname::text AS column
    FROM pg_class s
    JOIN pg_namespace n ON n.oid = s.relnamespace
    JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.oid AND d.deptype IN ('a', 'i')
    JOIN pg_class t ON t.oid = d.refobjid
    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
    WHERE s.relkind = 'S' AND n.nspname = 'public'
    ORDER BY s.relname`);
  return rows;
}

/** The migrations a database has applied (finished, not rolled back), by name; [] without the table. */
export async function readAppliedMigrations(client: pg.ClientBase): Promise<{ name: string; checksum: string }[]> {
  const exists = await client.query(`SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname = '_prisma_migrations'`);
  if (exists.rowCount === 0) return [];
  const { rows } = await client.query<{ name: string; checksum: string }>(
    `SELECT migration_name AS name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
  );
  return rows;
}
