import type { TestProject } from "vitest/node";
import { createPrismaClient } from "@/lib/db";
import { applyMigrations } from "@/lib/db/schema-engine";
import { seedDemoData } from "@/lib/db/seed/demo";
import { createServerDatabase, testDatabaseKind } from "@/test/helpers/db";
import { TEST_ADMIN_PASSWORD, TEST_API_TOKEN, startServer } from "@/test/helpers/server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    databaseKind: "pglite" | "postgres";
  }
}

export default async function setup(project: TestProject) {
  const kind = testDatabaseKind();
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  if (kind === "postgres") {
    const created = await createServerDatabase("contracts_http");
    dropDatabase = created.drop;
    databaseUrl = created.url;
    await applyMigrations(databaseUrl);
    const prisma = createPrismaClient(databaseUrl);
    await prisma.$transaction((tx) => seedDemoData(tx, { apiToken: TEST_API_TOKEN, adminPassword: TEST_ADMIN_PASSWORD }), { timeout: 120_000 });
    await prisma.$disconnect();
  }
  const server = await startServer({ databaseUrl });
  project.provide("baseUrl", server.baseUrl);
  project.provide("databaseUrl", server.databaseUrl);
  project.provide("databaseKind", kind);
  return async () => {
    await server.stop();
    await dropDatabase?.();
  };
}
