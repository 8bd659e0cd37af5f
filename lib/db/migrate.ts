import { spawn } from "node:child_process";
import path from "node:path";

/** At most this long for the migrations at start (a migration that rewrites a large table could take minutes). */
const MIGRATE_TIMEOUT_MS = 10 * 60_000;
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
      timeout: MIGRATE_TIMEOUT_MS,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) {
        try {
          const { applied } = JSON.parse(stdout.trim().split("\n").pop() ?? "") as { applied: string[] };
          return resolve(applied);
        } catch {
          return reject(new Error(`migrations: the child process answered no result: ${JSON.stringify(stdout.slice(0, 500))}`));
        }
      }
      const why = signal ? `was stopped (${signal}${signal === "SIGTERM" ? `, over ${MIGRATE_TIMEOUT_MS / 60_000} min?` : ""})` : `exited with code ${code}`;
      reject(new Error(`Applying the database migrations failed: the migration process ${why}.\n${stderr.trim().slice(0, MAX_STDERR_CHARS)}`));
    });
  });
}
