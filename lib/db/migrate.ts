import { spawn } from "node:child_process";
import path from "node:path";
import { logger } from "@/lib/logger";

/**
 * A migration that rewrites a large table can take minutes, and one stopped halfway leaves the
 * database for an operator to repair: the child is never killed on a timer. After this long, and
 * as often again, the log says that it is still running.
 */
const STILL_RUNNING_LOG_MS = 60_000;
const MAX_STDERR_CHARS = 8_000;

/**
 * Applies prisma/migrations to `connectionString` in a child process (lib/db/migrate-process.ts)
 * and answers the names of the migrations it applied. The server's own process never loads
 * Prisma's schema engine: its WebAssembly module and memory (20–40 MB that would stay for the
 * process's life) go away with the child. Rejects with the child's error when it fails.
 */
export function applyMigrationsInChildProcess(connectionString: string): Promise<string[]> {
  const script = path.join(process.cwd(), "lib", "db", "migrate-process.ts");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [/*turbopackIgnore: true*/ script], {
      cwd: process.cwd(),
      env: { ...process.env, MIGRATE_DATABASE_URL: connectionString, NODE_OPTIONS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const started = Date.now();
    const stillRunning = setInterval(() => {
      logger.warn({ pid: child.pid, seconds: Math.round((Date.now() - started) / 1000) }, "database migrations still running");
    }, STILL_RUNNING_LOG_MS);
    stillRunning.unref();
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk;
    });
    child.on("error", (error) => {
      clearInterval(stillRunning);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearInterval(stillRunning);
      if (code === 0) {
        try {
          const { applied } = JSON.parse(stdout.trim().split("\n").pop() ?? "") as { applied: string[] };
          return resolve(applied);
        } catch {
          return reject(new Error(`migrations: the child process answered no result: ${JSON.stringify(stdout.slice(0, 500))}`));
        }
      }
      const why = signal ? `was stopped (${signal})` : `exited with code ${code}`;
      reject(new Error(`Applying the database migrations failed: the migration process ${why}.\n${stderr.trim().slice(0, MAX_STDERR_CHARS)}`));
    });
  });
}
