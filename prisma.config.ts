import { defineConfig } from "prisma/config";

// `prisma generate` does not run the schema engine, but the CLI insists on downloading the native
// binary first, which fails offline. Naming any existing executable stops the download. Only for
// `generate`: other commands (run with internet access) should still fetch and use the real engine;
// offline, `npm run db:migrate` and `npm run db:diff` use the WebAssembly engine instead.
if (process.argv.includes("generate") && !process.env.PRISMA_SCHEMA_ENGINE_BINARY) {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
}

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/unused" },
});
