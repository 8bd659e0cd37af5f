// npm run db:backup -- FILE   (FILE "-": standard output)
// Writes one gzip'd file holding the whole database: DATABASE_URL's (from one snapshot, while the
// app keeps serving), else the embedded one under PGLITE_DATA_DIR (refused while the app holds it).
// Format and guarantees: README.md "Backup, restore and moving to PostgreSQL".
import { once } from "node:events";
import { createWriteStream, rmSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { constants as osConstants } from "node:os";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { BackupRefusal } from "../lib/db/backup/format.ts";
import { openDatabase } from "../lib/db/backup/open-database.ts";
import { writeBackup } from "../lib/db/backup/write-backup.ts";
import { env } from "../lib/env.ts";

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error("usage: npm run db:backup -- FILE   (FILE - writes to standard output)");
  process.exit(2);
}
const { DATABASE_URL, PGLITE_DATA_DIR } = env();
const partial = file === "-" ? null : `${file}.partial-${process.pid}`;
let db: Awaited<ReturnType<typeof openDatabase>> | undefined;
// FILE is claimed first, empty (an exclusive create: another backup or writer that asks the same
// is refused), then the whole backup, written to `partial` (created exclusively too), replaces the
// claim at once. A failure or a signal removes the files this run created and no other: a name
// already taken (FILE, or a `partial` left by an interrupted run whose pid this one reuses) is
// someone else's, and is refused.
const created = new Set<string>();
const removeCreated = () => {
  for (const own of created) {
    try {
      rmSync(own, { force: true });
    } catch {
      // Left for the operator: the message below names the file.
    }
  }
  created.clear();
};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    removeCreated();
    console.error(`The backup was stopped (${signal}): ${file} was not written.`);
    process.exit(128 + osConstants.signals[signal]);
  });
}
const refuseTaken = (refusal: string) => (error: NodeJS.ErrnoException) => Promise.reject(error.code === "EEXIST" ? new BackupRefusal(refusal) : error);
try {
  let out: Writable = process.stdout;
  if (partial) {
    await writeFile(file, "", { flag: "wx", mode: 0o600 }).catch(refuseTaken(`${file} already exists: choose a new file name.`));
    created.add(file);
    // Opened, and so refused, before the database is: not as the first rows reach it.
    const stream = createWriteStream(partial, { flags: "wx", mode: 0o600 });
    await once(stream, "open").catch(refuseTaken(`${partial} already exists (an interrupted backup's, or not a backup's): remove it, or choose a new file name.`));
    created.add(partial);
    out = stream;
  }
  db = await openDatabase(DATABASE_URL ? { url: DATABASE_URL } : { dataDir: PGLITE_DATA_DIR, create: false });
  const gzip = createGzip({ level: 6 });
  const [summary] = await Promise.all([writeBackup(db.client, gzip), pipeline(gzip, out)]);
  if (partial) await rename(partial, file);
  created.clear();
  const tables = summary.header.tables.length;
  console.error(`Backed up ${summary.rows} rows of ${tables} tables (schema at ${summary.header.migrations.at(-1)?.name}) to ${file}.`);
} catch (error) {
  removeCreated();
  console.error(error instanceof BackupRefusal ? error.message : `The backup failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await db?.close(false);
}
