import path from "node:path";
import { defineConfig } from "vitest/config";

// The fault test: its own PostgreSQL cluster (initdb in a temporary folder, its own port), crashed
// and restarted under load. Needs the production build and PostgreSQL's server binaries.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["test/fault/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    maxWorkers: 1,
    testTimeout: 240_000,
    hookTimeout: 180_000,
  },
});
