// npm run db:backup -- FILE   (FILE "-": standard output)
// Writes one gzip'd file holding the whole database: DATABASE_URL's (from one snapshot, while the
// app keeps serving), else the embedded one under PGLITE_DATA_DIR (refused while the app holds it).
// Format and guarantees: docs/architecture.md "Backup, restore and moving up".
import { createWriteStream } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
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
// is refused), then the whole backup replaces the claim at once; a failure takes both away.
let claimed = false;
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
  console.error(error instanceof BackupRefusal ? error.message : `The backup failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  if (partial) await rm(partial, { force: true });
  if (claimed) await rm(file, { force: true });
  await db?.close(false);
}
