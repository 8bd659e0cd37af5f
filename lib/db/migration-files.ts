// The migrations this code ships (prisma/migrations), read in one place: the schema engine applies
// them, a restore checks a backup's against them, readiness checks the database's.
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

export const MIGRATIONS_DIR = path.join(/*turbopackIgnore: true*/ process.cwd(), "prisma", "migrations");

export interface TShippedMigration {
  /** The folder's name, which `_prisma_migrations.migration_name` records. */
  name: string;
  sql: string;
  /** SHA-256 of the file's bytes, hex, as Prisma records it in `_prisma_migrations.checksum`. */
  checksum: string;
}

/** Every migration of `dir`, oldest first (their names start with their time). */
export async function readShippedMigrations(dir = MIGRATIONS_DIR): Promise<TShippedMigration[]> {
  const entries = await readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true }).catch(() => []);
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const bytes = await readFile(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"));
      return { name, sql: bytes.toString("utf8"), checksum: createHash("sha256").update(bytes).digest("hex") };
    }),
  );
}
