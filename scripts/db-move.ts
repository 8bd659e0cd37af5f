// npm run db:move -- postgresql://user:password@host:5432/contracts
// Copies the embedded database (PGLITE_DATA_DIR; stop the app first) into an EMPTY PostgreSQL
// database: a backup streamed straight into a restore (no file), in the restore's one transaction.
// Then set DATABASE_URL to that URL and start the app. The embedded folder is left as it was.
import { PassThrough } from "node:stream";
import { restoreFailureMessage } from "../lib/db/backup/failure-message.ts";
import { openDatabase } from "../lib/db/backup/open-database.ts";
import { restoreBackup } from "../lib/db/backup/restore-backup.ts";
import { writeBackup } from "../lib/db/backup/write-backup.ts";
import { env } from "../lib/env.ts";

const url = process.argv[2];
if (!url || process.argv.length > 3 || !/^postgres(ql)?:\/\//.test(url)) {
  console.error("usage: npm run db:move -- postgresql://user:password@host:5432/database");
  process.exit(2);
}
const { PGLITE_DATA_DIR } = env();
// Named before the move: a URL PostgreSQL accepts may be one WHATWG's URL does not (`postgresql://u@/db?host=…`).
const shown = URL.canParse(url) && new URL(url).host !== "" ? `${new URL(url).host}${new URL(url).pathname}` : "the target database";
let source: Awaited<ReturnType<typeof openDatabase>> | undefined;
let target: Awaited<ReturnType<typeof openDatabase>> | undefined;
try {
  source = await openDatabase({ dataDir: PGLITE_DATA_DIR, create: false });
  target = await openDatabase({ url });
  const stream = new PassThrough({ highWaterMark: 1024 * 1024 });
  stream.on("error", () => undefined); // each side reports its own failure below
  const [written, restored] = await Promise.allSettled([
    writeBackup(source.client, stream).catch((error: unknown) => {
      stream.destroy(error as Error);
      throw error;
    }),
    restoreBackup({ client: target.client, url, input: stream }),
  ]);
  if (restored.status === "rejected") throw restored.reason;
  if (written.status === "rejected") throw written.reason;
  console.error(`Moved ${restored.value.rows} rows of ${restored.value.header.tables.length} tables from ${PGLITE_DATA_DIR} into ${shown}: set DATABASE_URL to it and start the app.`);
} catch (error) {
  console.error(restoreFailureMessage(error, { verb: "move", targetRemoved: false }));
  process.exitCode = 1;
} finally {
  await target?.close(false);
  await source?.close(false);
}
