import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { chmod, mkdir, mkdtemp, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
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
 * `dataDir` is a folder (created when missing, and made private: mode 0700) or `memory://` for a
 * throwaway database. `restoring`: a restore makes this database, and marks the folder so
 * (`RESTORE_MARKER`) until it is done; any other opening of a folder so marked is refused.
 * `socketDir`: the folder for the socket, created (or narrowed) to mode 0700; default a fresh
 * private folder in the system's temporary directory, removed on stop and at exit.
 */
export async function startEmbeddedDatabase(dataDir: string, { socketDir, restoring = false }: { socketDir?: string; restoring?: boolean } = {}): Promise<EmbeddedDatabase> {
  let releaseFolder = () => {};
  if (!dataDir.startsWith("memory://")) {
    // The app's alone, as a server's data folder is: it holds the seal's key and every secret.
    await privateFolder(dataDir, "PGLITE_DATA_DIR");
    releaseFolder = takeDataFolder(dataDir);
    const marker = path.join(dataDir, RESTORE_MARKER);
    if (restoring) writeFileSync(marker, "", { mode: 0o600 });
    else if (existsSync(marker)) {
      releaseFolder();
      throw new UnfinishedRestore(`The embedded database at ${dataDir} is a restore that did not finish: run the same npm run db:restore again, or restore into a new folder.`);
    }
  }
  try {
    return await startOn(dataDir, socketDir, releaseFolder);
  } catch (error) {
    releaseFolder();
    throw error;
  }
}

async function startOn(dataDir: string, socketDir: string | undefined, releaseFolder: () => void): Promise<EmbeddedDatabase> {
  const ownSocketDir = socketDir === undefined;
  const dir = socketDir ?? (await mkdtemp(path.join(os.tmpdir(), "contracts-db-")));
  await privateFolder(dir, "EMBEDDED_DB_SOCKET_DIR");
  const removeSocketDir = () => {
    if (ownSocketDir) rmSync(dir, { recursive: true, force: true });
    else rmSync(path.join(dir, SOCKET_FILE), { force: true });
  };
  // A socket file left by a crashed run would make listen() fail.
  removeSocketDir();
  if (ownSocketDir) await privateFolder(dir, "EMBEDDED_DB_SOCKET_DIR");
  process.once("exit", removeSocketDir);

  // pg_trgm: the search document's trigram index (migration contract_search), as on a server.
  const db = await PGlite.create(dataDir, { extensions: { pg_trgm } });
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
      releaseFolder();
    },
  };
}

/** Refused when another live process holds the data folder (its message is one sentence for the operator). */
export class EmbeddedDatabaseInUse extends Error {}

/** In the data folder: the process that has it open (`{"pid","started"}`), removed when it stops. */
export const DATA_FOLDER_LOCK = "contracts-admin.lock";
/**
 * In a data folder a restore makes: written before the database is, removed once every row is in
 * (lib/db/backup/open-database.ts). Found by anything else that opens the folder, it is refused
 * (`UnfinishedRestore`): a restore stopped midway leaves no database to start on.
 */
export const RESTORE_MARKER = "contracts-admin.restoring";

export class UnfinishedRestore extends Error {}

/** The refusal of a folder that the live process `pid` holds. */
export const folderInUse = (dataDir: string, pid: number) =>
  new EmbeddedDatabaseInUse(`The embedded database at ${dataDir} is in use by process ${pid}: stop the app or command holding it first.`);

/** The live process holding `dataDir` (its lock), or null. */
export function dataFolderHolder(dataDir: string): number | null {
  const holder = readHolder(path.join(dataDir, DATA_FOLDER_LOCK));
  return holder && holder.pid !== process.pid && isAlive(holder) ? holder.pid : null;
}

/**
 * One owner per data folder: PGlite takes no lock of its own, and two processes on one folder
 * corrupt it (the app and `npm run db:backup`, or two apps). A lock left by a process that is gone
 * (or whose pid now names another process, told by its start time on Linux) is taken over. Answers
 * the release, also run at exit.
 */
function takeDataFolder(dataDir: string): () => void {
  const file = path.join(dataDir, DATA_FOLDER_LOCK);
  const mine = JSON.stringify({ pid: process.pid, started: processStart(process.pid) });
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, mine);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw error;
      const holder = dataFolderHolder(dataDir);
      if (holder !== null) throw folderInUse(dataDir, holder);
      rmSync(file, { force: true });
    }
  }
  const release = () => {
    if (readHolderText(file) === mine) rmSync(file, { force: true });
    process.removeListener("exit", release);
  };
  process.once("exit", release);
  return release;
}

function readHolderText(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function readHolder(file: string): { pid: number; started: string | null } | null {
  try {
    const v = JSON.parse(readHolderText(file) ?? "") as { pid?: unknown; started?: unknown };
    return Number.isInteger(v.pid) && (v.pid as number) > 0 ? { pid: v.pid as number, started: typeof v.started === "string" ? v.started : null } : null;
  } catch {
    return null;
  }
}

function isAlive(holder: { pid: number; started: string | null }): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const started = processStart(holder.pid);
  return holder.started === null || started === null || started === holder.started;
}

/** The process's start time in clock ticks since boot (Linux, /proc/<pid>/stat field 22); null elsewhere. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/** The name `pg` (like libpq) looks for in a socket folder, for the default port. */
const SOCKET_FILE = ".s.PGSQL.5432";

/** The connection string of an embedded database whose socket is in `socketDir`. */
export function embeddedDatabaseUrl(socketDir: string): string {
  return `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}&sslmode=disable`;
}

/** Creates `dir` if needed and makes it 0700; refuses a folder another user owns (`setting` names it). */
async function privateFolder(dir: string, setting: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await stat(dir);
  if (typeof process.getuid === "function" && info.uid !== process.getuid()) {
    throw new Error(`${setting}: ${dir} belongs to another user`);
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
