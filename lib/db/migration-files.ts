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

const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

/** Every migration of `dir`, oldest first (their names start with their time); a folder that cannot be read is an error. */
export async function readShippedMigrations(dir = MIGRATIONS_DIR): Promise<TShippedMigration[]> {
  const entries = await readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const bytes = await readFile(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"));
      return { name, sql: bytes.toString("utf8"), checksum: sha256(bytes) };
    }),
  );
}

/**
 * Whether `checksum` (as `_prisma_migrations` or a backup records it) is this migration's: of its
 * file, or of the file with its line ends the other way (CRLF or LF), as Prisma accepts: a checkout
 * may have converted them.
 */
export function isChecksumOf(migration: TShippedMigration, checksum: string): boolean {
  if (migration.checksum === checksum) return true;
  const lf = migration.sql.replace(/\r\n/g, "\n");
  return sha256(lf) === checksum || sha256(lf.replace(/\n/g, "\r\n")) === checksum;
}
