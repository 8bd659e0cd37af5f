import { createPrismaClient } from "@/lib/db/pool";
import { applyMigrations } from "@/lib/db/schema-engine";
import { seedDemoData } from "@/lib/seed/demo";
import { createServerDatabase, testDatabaseKind } from "@/test/helpers/db";
import { TEST_ADMIN_PASSWORD, TEST_API_TOKEN, startServer, type RunningServer } from "@/test/helpers/server";

/**
 * The production server on a fresh demo database of its own: embedded (seeded at first start), or
 * with TEST_DB=postgres a new database on the test server, migrated and seeded here first.
 */
export async function startServerOnFreshDatabase(env?: Record<string, string>): Promise<RunningServer & { kind: "pglite" | "postgres" }> {
  const kind = testDatabaseKind();
  if (kind === "pglite") return { ...(await startServer({ env })), kind };
  const created = await createServerDatabase("contracts_http");
  try {
    await applyMigrations(created.url);
    const prisma = createPrismaClient(created.url, 2);
    await seedDemoData(prisma, { apiToken: TEST_API_TOKEN, adminPassword: TEST_ADMIN_PASSWORD });
    await prisma.$disconnect();
    const server = await startServer({ databaseUrl: created.url, env });
    return {
      ...server,
      kind,
      async stop() {
        await server.stop();
        await created.drop();
      },
    };
  } catch (error) {
    await created.drop();
    throw error;
  }
}
