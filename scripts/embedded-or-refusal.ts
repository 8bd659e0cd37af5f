// For db:migrate and db:seed: the embedded database under PGLITE_DATA_DIR, or, when the app holds
// it or a restore into it did not finish, that refusal's one sentence and exit code 1 (no stack).
import { EmbeddedDatabaseInUse, startEmbeddedDatabase, UnfinishedRestore, type EmbeddedDatabase } from "../lib/db/embedded.ts";

export async function embeddedOrRefusal(dataDir: string): Promise<EmbeddedDatabase> {
  try {
    return await startEmbeddedDatabase(dataDir);
  } catch (error) {
    if (!(error instanceof EmbeddedDatabaseInUse || error instanceof UnfinishedRestore)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
