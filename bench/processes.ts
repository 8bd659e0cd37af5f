// The servers under test, each a child process of the benchmark: the app, started as `npm start`
// starts it, and the floor. Both are stopped by their own PIDs; memory is sampled from /proc/<pid>/status.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { BENCH_ADMIN_PASSWORD, BENCH_API_TOKEN, DIST_DIR, ROOT, log, settings } from "./config";
import { memoryLogFor } from "./memory-log";

export interface ServerProcess {
  name: string;
  baseUrl: string;
  pid: number;
  /** Where the server's stdout/stderr go. */
  logFile: string;
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

let logDir: string | undefined;
async function logFileFor(name: string): Promise<string> {
  logDir ??= await mkdtemp(path.join(os.tmpdir(), "contracts-bench-logs-"));
  return path.join(logDir, `${name}.log`);
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

async function waitReady(child: ChildProcess, url: string, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${url}: the server exited (${child.exitCode ?? child.signalCode}):\n${tail(logFile)}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s:\n${tail(logFile)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    process.kill(child.pid!, "SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid!, "SIGKILL");
      await exited;
    }
  };
}

function spawnLogged(name: string, file: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const fd = openSync(logFile, "a");
  // Straight to a file: the benchmark process (which also generates the load) never handles it.
  const child = spawn(file, args, { cwd: ROOT, env, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  child.on("error", (e) => log(`${name}: ${e.message}`));
  return child;
}

const quote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`);

/**
 * `npm start`'s command line (package.json's `start`: its environment settings and node flags), for
 * `sh -c` as npm runs it (its `exec` before `node`: the shell's PID becomes the server's), the
 * benchmark's own node flags right after `node`, and `args` at the end.
 */
export function npmStartCommand(nodeFlags: string[], args: string[]): string {
  const start = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
  const command = start.replace(/(^|\s)exec node(?=\s)/, `$1exec node${nodeFlags.map((flag) => ` ${quote(flag)}`).join("")}`);
  if (!/(^|\s)exec node(?=\s)/.test(start)) throw new Error(`package.json's start script does not \`exec node\` (a signal to npm start must reach the server): ${start}`);
  return `${command} ${args.map(quote).join(" ")}`;
}

export type AppDatabase = { kind: "postgres"; url: string } | { kind: "pglite"; dir: string; socketDir: string };

/** The app's server, started as `npm start` starts it, on the benchmark build; ready once `readyPath` answers 200. */
export async function startApp(name: string, db: AppDatabase, extraEnv: Record<string, string> = {}, { readyPath = "/v1/ping", nodeFlags = [] as string[] } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const logFile = await logFileFor(name);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: DIST_DIR,
    PORT: String(port),
    SEED_API_TOKEN: BENCH_API_TOKEN,
    SEED_ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
    API_RATE_LIMIT_PER_MINUTE: "0",
    LOG_LEVEL: settings.serverLogLevel,
    // npm puts its own bin folder first: `node` is the project's Node 24.
    PATH: `${path.join(ROOT, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`,
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  delete env.PGLITE_DATA_DIR;
  delete env.EMBEDDED_DB_SOCKET_DIR;
  if (db.kind === "postgres") env.DATABASE_URL = db.url;
  else {
    env.PGLITE_DATA_DIR = db.dir;
    env.EMBEDDED_DB_SOCKET_DIR = db.socketDir;
  }
  // BENCH_CPU_PROF=<folder>: each server writes a V8 CPU profile there when it stops (where the time goes).
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
  // BENCH_NODE_FLAGS="--trace-gc …": node options for the app's process (V8 flags NODE_OPTIONS refuses).
  const flags = [...(process.env.BENCH_NODE_FLAGS?.split(" ").filter(Boolean) ?? []), ...nodeFlags];
  const memory = memoryLogFor(name);
  const command = npmStartCommand([...flags, ...profile, ...memory.args], ["-p", String(port), "-H", "127.0.0.1"]);
  const child = spawnLogged(name, "/bin/sh", ["-c", command], { ...env, ...memory.env }, logFile);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = stopper(child);
  try {
    await waitReady(child, `${baseUrl}${readyPath}`, logFile, 180_000);
  } catch (error) {
    await stop();
    throw error;
  }
  const comm = readProc(child.pid!, "comm")?.trim();
  if (comm && !comm.startsWith("next-server")) log(`${name}: note: process ${child.pid} is "${comm}", not next-server`);
  return { name, baseUrl, pid: child.pid!, logFile, stop };
}

/** The floor (bench/floor.ts) in its own process, like the app, so it never shares a CPU thread with the load generator. */
export async function startFloor(name: string, databaseUrl: string, { embedded }: { embedded: boolean }): Promise<ServerProcess> {
  const port = await freePort();
  const logFile = await logFileFor(name);
  // As the app's pool: 10 connections on PostgreSQL, 8 on the embedded database (lib/db/index.ts),
  // where statements are not prepared by name (one shared session).
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    FLOOR_PORT: String(port),
    FLOOR_DATABASE_URL: databaseUrl,
    FLOOR_POOL_SIZE: embedded ? "8" : "10",
    FLOOR_PREPARED: embedded ? "0" : "1",
  };
  const memory = memoryLogFor(name);
  const child = spawnLogged(name, process.execPath, ["--import", "tsx", ...memory.args, path.join(ROOT, "bench", "floor.ts")], { ...env, ...memory.env }, logFile);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = stopper(child);
  try {
    await waitReady(child, `${baseUrl}/v1/ping`, logFile, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { name, baseUrl, pid: child.pid!, logFile, stop };
}

function readProc(pid: number, file: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return null;
  }
}

/** Resident memory of a process in MB (VmRSS), or null when it is gone or this is not Linux. */
export function rssMb(pid: number): number | null {
  const status = readProc(pid, "status");
  const match = status?.match(/^VmRSS:\s+(\d+)\s+kB/m);
  return match ? Number(match[1]) / 1024 : null;
}

const CLK_TCK = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) a process has used so far, in ms; null when unknown. */
export function cpuMs(pid: number): number | null {
  const stat = readProc(pid, "stat");
  if (!stat) return null;
  // Fields after the command (which may contain spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime + stime) ? ((utime + stime) * 1000) / CLK_TCK : null;
}

/** The 1-minute load average (how busy the shared machine was). */
export function loadAverage(): number | null {
  try {
    return Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
  } catch {
    return null;
  }
}

/** Samples a process's RSS every 200 ms until stopped; answers the peak in MB (`peak()` reads it so far). */
export function sampleRss(pid: number, intervalMs = 200): { stop(): number | null; peak(): number | null } {
  let peak: number | null = rssMb(pid);
  const timer = setInterval(() => {
    const v = rssMb(pid);
    if (v !== null && (peak === null || v > peak)) peak = v;
  }, intervalMs);
  timer.unref();
  return {
    peak: () => peak,
    stop() {
      clearInterval(timer);
      const v = rssMb(pid);
      if (v !== null && (peak === null || v > peak)) peak = v;
      return peak;
    },
  };
}

/**
 * What kind of memory a process's RSS is (MB), from /proc/<pid>/status: anonymous (the JS heap,
 * WebAssembly memories, native buffers), file-backed (mapped code and libraries), shared memory.
 */
export function memoryBreakdown(pid: number): Record<string, number> | null {
  const status = readProc(pid, "status");
  if (!status) return null;
  const out: Record<string, number> = {};
  for (const key of ["RssAnon", "RssFile", "RssShmem", "VmHWM"]) {
    const m = new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, "m").exec(status);
    if (m) out[key] = Math.round((Number(m[1]) / 1024) * 10) / 10;
  }
  return out;
}
