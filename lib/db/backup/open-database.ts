// The database a backup command reads or fills: a PostgreSQL server's (a URL), or the embedded one
// in a data folder, opened for this command alone (lib/db/embedded.ts refuses a folder a running
// app holds).
import { existsSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { dataFolderHolder, EmbeddedDatabaseInUse, folderInUse, RESTORE_MARKER, startEmbeddedDatabase, UnfinishedRestore } from "../embedded.ts";
import { BackupRefusal } from "./format.ts";

export interface TOpenedDatabase {
  client: pg.Client;
  /** Its connection string (the embedded one's socket). */
  url: string;
  /** Closes it; `failed`: removes an embedded folder this command created. */
  close(failed: boolean): Promise<void>;
  /** Whether a failed close removes it (an embedded database this command created): then a failure changed nothing. */
  removedOnFailure: boolean;
}

/**
 * A client that reports a lost connection through the command's next query, not as an unhandled
 * `error` event, and gives up connecting after 10 s.
 */
async function connect(connectionString: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000 });
  client.on("error", () => undefined);
  await client.connect();
  return client;
}

export async function openDatabase(target: { url: string } | { dataDir: string; create: boolean }): Promise<TOpenedDatabase> {
  if ("url" in target) {
    const client = await connect(target.url);
    return { client, url: target.url, close: () => client.end().catch(() => undefined), removedOnFailure: false };
  }
  const { dataDir } = target;
  const marker = path.join(dataDir, RESTORE_MARKER);
  // A restore into this folder that did not finish (its process killed): the folder is that
  // restore's, so the same command starts over in it, unless a live process holds it.
  if (target.create && existsSync(marker)) {
    const holder = dataFolderHolder(dataDir);
    if (holder !== null) throw new BackupRefusal(folderInUse(dataDir, holder).message);
    for (const name of await readdir(dataDir)) await rm(path.join(dataDir, name), { recursive: true, force: true });
  }
  const existed = existsSync(path.join(dataDir, "PG_VERSION"));
  if (!existed && !target.create) throw new BackupRefusal(`There is no embedded database at ${dataDir} (set PGLITE_DATA_DIR, or DATABASE_URL for a PostgreSQL server).`);
  const folderExisted = existsSync(dataDir);
  // A failed restore empties the folder it initialised: it must have held nothing of anyone's.
  if (!existed && folderExisted && (await readdir(dataDir)).length > 0) {
    throw new BackupRefusal(`${dataDir} holds files but no embedded database: restore into a new or empty folder.`);
  }
  let embedded;
  try {
    // A database this command makes is marked as a restore's until every row is in (`close`).
    embedded = await startEmbeddedDatabase(dataDir, { restoring: !existed });
  } catch (error) {
    if (error instanceof EmbeddedDatabaseInUse || error instanceof UnfinishedRestore) throw new BackupRefusal(error.message);
    throw error;
  }
  const client = await connect(embedded.url);
  return {
    client,
    url: embedded.url,
    removedOnFailure: !existed,
    async close(failed) {
      await client.end().catch(() => undefined);
      await embedded.stop();
      if (!failed && !existed) await rm(marker, { force: true });
      // A failed restore into a folder it initialised leaves the folder as it found it.
      if (failed && !existed) {
        if (!folderExisted) await rm(dataDir, { recursive: true, force: true });
        else for (const name of await readdir(dataDir)) await rm(path.join(dataDir, name), { recursive: true, force: true });
      }
    },
  };
}
