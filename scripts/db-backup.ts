// npm run db:backup -- FILE   (FILE "-": standard output)
// Writes one gzip'd file holding the whole database: DATABASE_URL's (from one snapshot, while the
// app keeps serving), else the embedded one under PGLITE_DATA_DIR (refused while the app holds it).
// Format and guarantees: docs/architecture.md "Backup, restore and moving up".
import { createWriteStream, rmSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { constants as osConstants } from "node:os";
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
// is refused), then the whole backup replaces the claim at once. A failure or a signal takes away
// the claim and the partial file (only this run's: a refused run owns neither).
let claimed = false;
const removeClaim = () => {
  if (!claimed || !partial) return;
  for (const own of [partial, file]) {
    try {
      rmSync(own, { force: true });
    } catch {
      // Left for the operator: the message below names the file.
    }
  }
  claimed = false;
};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    removeClaim();
    console.error(`The backup was stopped (${signal}): ${file} was not written.`);
    process.exit(128 + osConstants.signals[signal]);
  });
}
try {
  if (partial) {
    await writeFile(file, "", { flag: "wx", mode: 0o600 }).catch((error: NodeJS.ErrnoException) => Promise.reject(error.code === "EEXIST" ? new BackupRefusal(`${file} already exists: choose a new file name.`) : error));
    claimed = true;
  }
  db = await openDatabase(DATABASE_URL ? { url: DATABASE_URL } : { dataDir: PGLITE_DATA_DIR, create: false });
  const gzip = createGzip({ level: 6 });
  const written = pipeline(gzip, partial ? createWriteStream(partial, { flags: "wx", mode: 0o600 }) : process.stdout);
  const [summary] = await Promise.all([writeBackup(db.client, gzip), written]);
  if (partial) await rename(partial, file);
  claimed = false;
  const tables = summary.header.tables.length;
  console.error(`Backed up ${summary.rows} rows of ${tables} tables (schema at ${summary.header.migrations.at(-1)?.name}) to ${file}.`);
} catch (error) {
  removeClaim();
  console.error(error instanceof BackupRefusal ? error.message : `The backup failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await db?.close(false);
}
