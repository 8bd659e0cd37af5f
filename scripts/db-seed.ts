// Migrates, then fills an empty database with the demo data (DATABASE_URL's, or the embedded one
// under PGLITE_DATA_DIR: stop the app first). A database that has users is left alone.
import { createPrismaClient } from "../lib/db/pool.ts";
import { applyMigrations } from "../lib/db/schema-engine.ts";
import { seedIfEmpty } from "../lib/seed/demo.ts";
import { env } from "../lib/env.ts";
import { embeddedOrRefusal } from "./embedded-or-refusal.ts";

const { DATABASE_URL, PGLITE_DATA_DIR } = env();
const embedded = DATABASE_URL ? undefined : await embeddedOrRefusal(PGLITE_DATA_DIR);
const url = DATABASE_URL ?? embedded!.url;
await applyMigrations(url);
const prisma = createPrismaClient(url);
try {
  if (!(await seedIfEmpty(prisma))) console.log("The database already has users: nothing seeded.");
} finally {
  await prisma.$disconnect();
  await embedded?.stop();
}
