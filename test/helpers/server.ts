import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";

import { embeddedDatabaseUrl } from "@/lib/db/embedded";

export const TEST_API_TOKEN = "test-api-token-0123456789abcdef";
export const TEST_ADMIN_PASSWORD = "test-admin-password";

export interface RunningServer {
  baseUrl: string;
  /** The server's database, for tests that make their own rows. */
  databaseUrl: string;
  /**
   * Everything the server wrote to stdout and stderr so far (its JSON log lines among it). The
   * level is `TEST_SERVER_LOG_LEVEL` (default warn) unless `env.LOG_LEVEL` says otherwise.
   */
  logs(): string;
  /**
   * `logs()` once the lines of what has been answered so far have arrived through the pipe. For
   * checking that a line is absent.
   */
  settledLogs(): Promise<string>;
  /** The server's process id (to read its memory use). */
  pid: number;
  /** The exit code once the process has exited (null when a signal ended it). */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/**
 * Starts the production build (`server.mjs`, as `npm start` does, so `npm run build` must have run) on a fresh
 * database: embedded (a new data folder) or the given PostgreSQL database (already migrated and
 * seeded by the caller, as `npm run db:seed` does). Resolves once /v1/ping answers 200.
 */
export async function startServer(
  options: {
    databaseUrl?: string;
    env?: Record<string, string>;
    /** An embedded database folder of the caller's, kept when the server stops (default: a fresh temporary one, removed). */
    dataDir?: string;
    /** Through `npm start` itself (its script), not `server.mjs` directly: `pid` is then npm's. */
    viaNpmStart?: boolean;
  } = {},
): Promise<RunningServer> {
  const port = await freePort();
  // The embedded database's socket, in a private folder of the test's (the app makes it 0700).
  const socketDir = options.databaseUrl ? undefined : await mkdtemp(path.join(os.tmpdir(), "contracts-sock-"));
  const ownDataDir = !options.databaseUrl && !options.dataDir;
  const dataDir = options.databaseUrl ? undefined : (options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), "contracts-pglite-"))));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    SEED_API_TOKEN: TEST_API_TOKEN,
    SEED_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    LOG_LEVEL: process.env.TEST_SERVER_LOG_LEVEL ?? "warn",
    // Suites send bursts with one token; the rate limit has its own test.
    API_RATE_LIMIT_PER_MINUTE: "0",
    // Background work at test speed: due contracts turn overdue, mail goes, and count deltas are
    // folded, within a second.
    OVERDUE_CHECK_INTERVAL_MS: "300",
    MAIL_POLL_INTERVAL_MS: "200",
    COUNT_FOLD_INTERVAL_MS: "200",
    // Webhooks to the tests' receivers on 127.0.0.1, polled fast, retried within a second or so.
    WEBHOOK_ALLOW_PRIVATE_URLS: "1",
    WEBHOOK_POLL_INTERVAL_MS: "100",
    WEBHOOK_RETRY_SCALE: "0.0002",
    ...options.env,
  };
  delete env.DATABASE_URL;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else {
    env.PGLITE_DATA_DIR = dataDir!;
    env.EMBEDDED_DB_SOCKET_DIR ??= socketDir!;
  }
  // What `npm start` runs: the front door (server.mjs) and Next behind it, in one process.
  const serverArgs = ["-p", String(port), "-H", "127.0.0.1"];
  const child: ChildProcess = options.viaNpmStart
    ? spawn("npm", ["start", "--silent", "--", ...serverArgs], { env, stdio: ["ignore", "pipe", "pipe"] })
    : spawn(process.execPath, [path.join(process.cwd(), "server.mjs"), ...serverArgs], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  // Generous: a first start migrates and seeds, and a busy machine (parallel builds) slows it a lot.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/v1/ping`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not become ready in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    databaseUrl: options.databaseUrl ?? embeddedDatabaseUrl(env.EMBEDDED_DB_SOCKET_DIR!),
    pid: child.pid!,
    exited,
    logs: () => output,
    async settledLogs() {
      await new Promise((r) => setTimeout(r, 100));
      return output;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      if (dataDir && ownDataDir) await rm(dataDir, { recursive: true, force: true });
      if (socketDir) await rm(socketDir, { recursive: true, force: true });
    },
  };
}
