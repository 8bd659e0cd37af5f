// Writes a backup (lib/db/backup/format.ts) of the database `client` is connected to, from one
// snapshot (REPEATABLE READ, READ ONLY: a PostgreSQL server may keep serving while it runs), table by
// table through a cursor, so no table is ever held in memory.
import { createHash } from "node:crypto";
import { once } from "node:events";
import type { Writable } from "node:stream";
import pg from "pg";
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupRefusal,
  MAX_LINE_BYTES,
  ident,
  readAppliedMigrations,
  readOwnedSequences,
  readTables,
  setExactTextSession,
  type TBackupHeader,
} from "./format.ts";

/** Rows fetched at a time: fewer for tables holding bytes (a file chunk is 256 KiB). */
const FETCH_ROWS = 500;
const FETCH_ROWS_WITH_BYTES = 8;

export interface TBackupSummary {
  header: TBackupHeader;
  rows: number;
}

/** Resolves at the first of `events` on `stream`, and takes the listeners of the others off again. */
async function firstOf(stream: Writable, events: string[]): Promise<void> {
  const waiting = new AbortController();
  try {
    await Promise.race(events.map((event) => once(stream, event, { signal: waiting.signal })));
  } finally {
    waiting.abort();
  }
}

/** Writes the backup's lines to `out` (uncompressed; the caller gzips for a file) and ends it. */
export async function writeBackup(client: pg.ClientBase, out: Writable): Promise<TBackupSummary> {
  const hash = createHash("sha256");
  const write = async (value: unknown) => {
    const line = Buffer.from(`${JSON.stringify(value)}\n`, "utf8");
    if (line.length > MAX_LINE_BYTES) throw new BackupRefusal(`A row is longer than a backup line may be (${MAX_LINE_BYTES} bytes): ${line.subarray(0, 80).toString()}…`);
    hash.update(line);
    if (out.destroyed) throw new Error("the backup's reader stopped");
    if (!out.write(line)) await firstOf(out, ["drain", "close"]);
  };
  await setExactTextSession(client);
  await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  let total = 0;
  try {
    const migrations = await readAppliedMigrations(client);
    if (migrations.length === 0) throw new BackupRefusal("This database has no migrations applied: there is nothing of this app's to back up.");
    const tables = await readTables(client);
    const counted: TBackupHeader["tables"] = [];
    for (const t of tables) {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${ident(t.name)}`);
      counted.push({ name: t.name, rows: Number(rows[0]!.n) });
    }
    const sequences: TBackupHeader["sequences"] = [];
    for (const s of await readOwnedSequences(client)) {
      const { rows } = await client.query<{ value: string; called: boolean }>(`SELECT last_value::text AS value, is_called AS called FROM ${ident(s.name)}`);
      sequences.push({ name: s.name, value: rows[0]!.value, called: rows[0]!.called });
    }
    const header: TBackupHeader = { format: BACKUP_FORMAT, version: BACKUP_VERSION, created: new Date().toISOString(), migrations, tables: counted, sequences };
    await write(header);
    for (const t of tables) {
      const columns = t.columns.map((c) => c.name);
      const base64 = t.columns.filter((c) => c.bytea).map((c) => c.name);
      await write({ table: t.name, columns, base64 });
      const select = t.columns.map((c) => (c.bytea ? `t.${ident(c.name)}` : `t.${ident(c.name)}::text`)).join(", ");
      const order = (t.primaryKey.length ? t.primaryKey : columns).map((c) => `t.${ident(c)}`).join(", ");
      await client.query(`DECLARE backup_rows NO SCROLL CURSOR FOR SELECT ${select} FROM ${ident(t.name)} t ORDER BY ${order}`);
      const fetch = `FETCH ${base64.length ? FETCH_ROWS_WITH_BYTES : FETCH_ROWS} FROM backup_rows`;
      for (;;) {
        const { rows } = await client.query<unknown[]>({ text: fetch, rowMode: "array" });
        for (const row of rows) {
          await write(row.map((v) => (v === null ? null : Buffer.isBuffer(v) ? v.toString("base64") : v)));
        }
        total += rows.length;
        if (rows.length === 0) break;
      }
      await client.query("CLOSE backup_rows");
    }
    await client.query("COMMIT");
    const trailer = Buffer.from(`${JSON.stringify({ end: true, sha256: hash.digest("hex") })}\n`);
    out.end(trailer);
    await firstOf(out, ["finish", "close"]);
    return { header, rows: total };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    out.destroy(error as Error);
    throw error;
  }
}
