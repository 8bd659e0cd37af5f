import path from "node:path";
import { defineConfig } from "vitest/config";

// HTTP tests: the production server (`next start`) on a fresh database, called over real HTTP.
// `npm run build` must have run. TEST_DB=postgres uses a fresh database on the PostgreSQL server.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["test/http/**/*.test.ts"],
    globalSetup: ["test/http/global-setup.ts"],
    environment: "node",
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
});
