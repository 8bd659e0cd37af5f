// Applies prisma/migrations to DATABASE_URL's database, or to the embedded one under
// PGLITE_DATA_DIR (stop the app first: an embedded database has one owner at a time).
import { applyMigrations } from "../lib/db/schema-engine.ts";
import { env } from "../lib/env.ts";
import { embeddedOrRefusal } from "./embedded-or-refusal.ts";

const { DATABASE_URL, PGLITE_DATA_DIR } = env();
const embedded = DATABASE_URL ? undefined : await embeddedOrRefusal(PGLITE_DATA_DIR);
try {
  const applied = await applyMigrations(DATABASE_URL ?? embedded!.url);
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Already up to date.");
} finally {
  await embedded?.stop();
}
