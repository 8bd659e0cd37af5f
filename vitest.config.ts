import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["test/**/*.test.ts", "lib/**/*.test.ts"],
    exclude: ["test/http/**", "test/fault/**", "node_modules/**"],
    environment: "node",
    pool: "forks",
    // Each file opens its own database; two workers suit this two-core machine.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
