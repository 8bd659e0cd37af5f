import { rmSync } from "node:fs";
import { chmod, mkdir, mkdtemp, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/**
 * The embedded database: PostgreSQL compiled to WebAssembly (PGlite), served on a Unix socket so
 * the app reaches it through the same `pg` driver and Prisma adapter as a real server.
 *
 * PGlite's socket server has no authentication, so the socket lives in a folder only this user
 * can enter (mode 0700): other users' processes cannot connect, and this user can read the data
 * folder anyway. Never a TCP port, which every local process could reach.
 */
export interface EmbeddedDatabase {
  /** `postgresql://…?host=<socket folder>` connection string of the socket. */
  url: string;
  /** The private folder holding the socket (`.s.PGSQL.5432`). */
  socketDir: string;
  db: PGlite;
  stop(): Promise<void>;
}

/**
 * `dataDir` is a folder (created when missing) or `memory://` for a throwaway database.
 * `socketDir`: the folder for the socket, created (or narrowed) to mode 0700; default a fresh
 * private folder in the system's temporary directory, removed on stop and at exit.
 */
export async function startEmbeddedDatabase(dataDir: string, { socketDir }: { socketDir?: string } = {}): Promise<EmbeddedDatabase> {
  if (!dataDir.startsWith("memory://")) await mkdir(dataDir, { recursive: true });
  const ownSocketDir = socketDir === undefined;
  const dir = socketDir ?? (await mkdtemp(path.join(os.tmpdir(), "contracts-db-")));
  await privateFolder(dir);
  const removeSocketDir = () => {
    if (ownSocketDir) rmSync(dir, { recursive: true, force: true });
    else rmSync(path.join(dir, SOCKET_FILE), { force: true });
  };
  // A socket file left by a crashed run would make listen() fail.
  removeSocketDir();
  if (ownSocketDir) await privateFolder(dir);
  process.once("exit", removeSocketDir);

  const db = await PGlite.create(dataDir);
  // PGlite runs one query at a time; the socket server queues statements and keeps a transaction's
  // statements on the connection that opened it, so several pool connections are safe.
  const server = new PGLiteSocketServer({ db, path: path.join(dir, SOCKET_FILE), maxConnections: 32 });
  keepProtocolUnitsTogether(server);
  await server.start();
  return {
    url: embeddedDatabaseUrl(dir),
    socketDir: dir,
    db,
    async stop() {
      await server.stop();
      await db.close();
      removeSocketDir();
      process.removeListener("exit", removeSocketDir);
    },
  };
}

/** The name `pg` (like libpq) looks for in a socket folder, for the default port. */
const SOCKET_FILE = ".s.PGSQL.5432";

/** The connection string of an embedded database whose socket is in `socketDir`. */
export function embeddedDatabaseUrl(socketDir: string): string {
  return `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}&sslmode=disable`;
}

/** Creates `dir` if needed and makes it 0700; refuses a folder another user owns. */
async function privateFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await stat(dir);
  if (typeof process.getuid === "function" && info.uid !== process.getuid()) {
    throw new Error(`EMBEDDED_DB_SOCKET_DIR: ${dir} belongs to another user`);
  }
  await chmod(dir, 0o700);
}

// Wire-protocol message types that open or continue an extended-query unit, which only a Sync
// closes: Parse, Bind, Describe, Execute, Close, Flush.
const EXTENDED_QUERY_MESSAGES = new Set(["P", "B", "D", "E", "C", "H"].map((c) => c.charCodeAt(0)));

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve(bytes: number): void;
  reject(error: unknown): void;
  onData(data: Uint8Array): void;
}
interface QueryQueue {
  db: PGlite;
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

/**
 * PGlite is one backend session shared by every socket connection. pglite-socket queues messages
 * one at a time and keeps a connection's turn only while a transaction is open, so the Parse/Bind/
 * Execute/Sync of two connections' queries could interleave inside that one session and each get
 * the other's rows. This keeps a connection's turn from its first extended-query message until its
 * Sync (and, as before, for a whole transaction).
 */
function keepProtocolUnitsTogether(server: PGLiteSocketServer) {
  const queue = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  let midUnit = false;
  queue.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const sticky = this.lastHandlerId !== null && (midUnit || this.db.isInTransaction());
        const index = sticky ? this.queue.findIndex((q) => q.handlerId === this.lastHandlerId) : 0;
        // The connection holding the turn has not sent its next message yet: wait for it.
        if (index === -1) break;
        const item = this.queue.splice(index, 1)[0]!;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          midUnit = false;
          this.lastHandlerId = null;
          item.reject(error);
          continue;
        }
        this.lastHandlerId = item.handlerId;
        midUnit = EXTENDED_QUERY_MESSAGES.has(item.message[0]!);
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  };
  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId: number) => {
    // A connection that goes away mid-unit must not keep the turn.
    if (queue.lastHandlerId === handlerId) midUnit = false;
    clear(handlerId);
  };
}
