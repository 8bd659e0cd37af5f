// npm run db:restore -- FILE   (FILE "-": standard input)
// Fills an EMPTY database from a backup made by db:backup: DATABASE_URL's, else the embedded one
// under PGLITE_DATA_DIR (a new folder, or one without data; refused while the app holds it). One
// transaction: a refusal or a failure changes nothing. Then this code's later migrations, if any.
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { restoreFailureMessage } from "../lib/db/backup/failure-message.ts";
import { openDatabase } from "../lib/db/backup/open-database.ts";
import { gunzipBackup } from "../lib/db/backup/read-file.ts";
import { restoreBackup, verifyBackup } from "../lib/db/backup/restore-backup.ts";
import { applyMigrations } from "../lib/db/schema-engine.ts";
import { env } from "../lib/env.ts";

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error("usage: npm run db:restore -- FILE   (FILE - reads standard input)");
  process.exit(2);
}
const { DATABASE_URL, PGLITE_DATA_DIR } = env();
let db: Awaited<ReturnType<typeof openDatabase>> | undefined;
let restored = false;
try {
  // Before the database is opened: a missing file changes nothing.
  if (file !== "-") await (await open(file)).close();
  // A file is read through once before anything changes: a damaged, cut or tampered one is refused
  // without a trace (standard input cannot be read twice; the rows' transaction still rolls back).
  if (file !== "-") await verifyBackup(gunzipBackup(createReadStream(file)));
  const input = gunzipBackup(file === "-" ? process.stdin : createReadStream(file));
  db = await openDatabase(DATABASE_URL ? { url: DATABASE_URL } : { dataDir: PGLITE_DATA_DIR, create: true });
  const summary = await restoreBackup({ client: db.client, url: db.url, input });
  restored = true;
  console.error(`Restored ${summary.rows} rows of ${summary.header.tables.length} tables from ${file} (backup of ${summary.header.created}).`);
  if (summary.later.length > 0) {
    await db.close(false);
    db = undefined;
    // Taken forward like any database the app opens (it would apply them at its start).
    const embedded = DATABASE_URL ? undefined : await import("../lib/db/embedded.ts").then((m) => m.startEmbeddedDatabase(PGLITE_DATA_DIR));
    try {
      const applied = await applyMigrations(DATABASE_URL ?? embedded!.url);
      console.error(`Applied this version's later migrations: ${applied.join(", ")}.`);
    } finally {
      await embedded?.stop();
    }
  }
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === "ENOENT") console.error(`${file} does not exist.`);
  else if (restored) console.error(`The rows were restored, but this version's later migrations failed: ${(error as Error).message}`);
  else console.error(restoreFailureMessage(error, { verb: "restore", targetRemoved: db?.removedOnFailure ?? true }));
  process.exitCode = 1;
} finally {
  await db?.close(!restored);
}
