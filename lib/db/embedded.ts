import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/**
 * The embedded database: PostgreSQL compiled to WebAssembly (PGlite), served on a loopback port so
 * the app reaches it through the same `pg` driver and Prisma adapter as a real server.
 */
export interface EmbeddedDatabase {
  /** `postgresql://…` connection string of the loopback socket. */
  url: string;
  db: PGlite;
  stop(): Promise<void>;
}

/**
 * `dataDir` is a folder (created when missing) or `memory://` for a throwaway database.
 * `port` 0 picks a free port.
 */
export async function startEmbeddedDatabase(dataDir: string, port = 0): Promise<EmbeddedDatabase> {
  if (!dataDir.startsWith("memory://")) await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir);
  // PGlite runs one query at a time; the socket server queues statements and keeps a transaction's
  // statements on the connection that opened it, so several pool connections are safe.
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port, maxConnections: 32 });
  await server.start();
  const url = `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  return {
    url,
    db,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
