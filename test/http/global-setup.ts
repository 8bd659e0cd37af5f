import type { TestProject } from "vitest/node";
import { startServerOnFreshDatabase } from "@/test/helpers/fresh-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    databaseKind: "pglite" | "postgres";
  }
}

/** One production server on a fresh demo database, shared by the HTTP test files. */
export default async function setup(project: TestProject) {
  const server = await startServerOnFreshDatabase();
  project.provide("baseUrl", server.baseUrl);
  project.provide("databaseUrl", server.databaseUrl);
  project.provide("databaseKind", server.kind);
  return () => server.stop();
}
