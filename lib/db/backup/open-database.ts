// The database a backup command reads or fills: a PostgreSQL server's (a URL), or the embedded one
// in a data folder, opened for this command alone (lib/db/embedded.ts refuses a folder a running
// app holds).
import { existsSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { EmbeddedDatabaseInUse, startEmbeddedDatabase } from "../embedded.ts";
import { BackupRefusal } from "./format.ts";

export interface TOpenedDatabase {
  client: pg.Client;
  /** Its connection string (the embedded one's socket). */
  url: string;
  /** Closes it; `failed`: removes an embedded folder this command created. */
  close(failed: boolean): Promise<void>;
}

export async function openDatabase(target: { url: string } | { dataDir: string; create: boolean }): Promise<TOpenedDatabase> {
  if ("url" in target) {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    return { client, url: target.url, close: () => client.end().catch(() => undefined) };
  }
  const { dataDir } = target;
  const existed = existsSync(path.join(dataDir, "PG_VERSION"));
  if (!existed && !target.create) throw new BackupRefusal(`There is no embedded database at ${dataDir} (set PGLITE_DATA_DIR, or DATABASE_URL for a PostgreSQL server).`);
  const folderExisted = existsSync(dataDir);
  let embedded;
  try {
    embedded = await startEmbeddedDatabase(dataDir);
  } catch (error) {
    if (error instanceof EmbeddedDatabaseInUse) throw new BackupRefusal(error.message);
    throw error;
  }
  const client = new pg.Client({ connectionString: embedded.url });
  await client.connect();
  return {
    client,
    url: embedded.url,
    async close(failed) {
      await client.end().catch(() => undefined);
      await embedded.stop();
      // A failed restore into a folder it initialised leaves the folder as it found it.
      if (failed && !existed) {
        if (!folderExisted) await rm(dataDir, { recursive: true, force: true });
        else for (const name of await readdir(dataDir)) await rm(path.join(dataDir, name), { recursive: true, force: true });
      }
    },
  };
}
