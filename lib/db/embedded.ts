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
  keepProtocolUnitsTogether(server);
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
