import { afterEach, describe, expect, it, vi } from "vitest";
import { postgresUrls } from "@/bench/config";

// The benchmark drives its PostgreSQL server flat out and loads 100,000 contracts into it: only
// a server on this machine (bench/config.ts `postgresUrls`).
describe("bench database", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("takes a server on this machine: loopback or a Unix socket", () => {
    for (const url of [
      "postgresql://postgres@127.0.0.1:5432/b",
      "postgresql://postgres@localhost/b",
      "postgresql://postgres@[::1]:5432/b",
      "postgresql:///b?host=/var/run/postgresql",
    ]) {
      vi.stubEnv("DATABASE_URL", url);
      expect(postgresUrls().small, url).toMatch(/\/b_small(\?|$)/);
    }
    vi.stubEnv("DATABASE_URL", "");
    expect(postgresUrls().large).toBe("postgresql://postgres@127.0.0.1:5432/contracts_bench");
  });

  it("refuses one elsewhere", () => {
    for (const url of ["postgresql://postgres@db.example.com/b", "postgresql://postgres@10.0.0.5:5432/b", "postgresql://postgres@127.0.0.1/b?host=db.example.com"]) {
      vi.stubEnv("DATABASE_URL", url);
      expect(() => postgresUrls(), url).toThrow(/on this machine/);
    }
  });
});
