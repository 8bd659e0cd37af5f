// Applies prisma/migrations to one database and exits: the app's server runs this file as a
// child process when it opens its database (lib/db/migrate.ts), so Prisma's schema engine (a large
// WebAssembly module and its memory) lives and dies with the child instead of staying in the
// server's memory for the rest of its life. Node runs this TypeScript file directly (type stripping),
// which is why its imports name files, not `@/` aliases.
//
// Input: the connection string in MIGRATE_DATABASE_URL (not an argument: `ps` shows arguments).
// Output: one JSON line on stdout, `{"applied":["20260101000000_init",…]}`; exit code 0. On failure:
// the error on stderr, exit code 1.
import { applyMigrations } from "./schema-engine.ts";

const url = process.env.MIGRATE_DATABASE_URL;
if (!url) {
  process.stderr.write("MIGRATE_DATABASE_URL is not set\n");
  process.exit(2);
}
try {
  const applied = await applyMigrations(url);
  process.stdout.write(`${JSON.stringify({ applied })}\n`);
  // The engine's pool would keep the process alive until its idle connections time out.
  process.exit(0);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}
