import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";

// The benchmark's memory log (bench/memory-log.ts, bench/memory-sampler.mjs): what a server's
// memory is made of, sampled inside it each second, and the report's table of it.
const dir = mkdtempSync(path.join(os.tmpdir(), "memory-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("bench memory log", () => {
  it("the sampler writes a line a second of what the process's memory is made of", () => {
    const file = path.join(dir, "sampled.jsonl");
    // What an earlier run left is dropped.
    writeFileSync(file, '{"rss":1}\n');
    const sampler = path.resolve("bench/memory-sampler.mjs");
    execFileSync(process.execPath, ["--import", sampler, "-e", "const keep = []; const t = setInterval(() => keep.push(Buffer.alloc(1 << 20, 1)), 100); setTimeout(() => clearInterval(t), 2600);"], {
      env: { ...process.env, BENCH_MEMORY_SAMPLE_FILE: file },
      timeout: 20_000,
    });
    const lines = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, number>);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      for (const key of ["rss", "heapCommitted", "heapUsed", "oldSpace", "codeSpace", "largeObjects", "external", "glibcPool", "anonymous", "files"]) {
        expect(typeof line[key], key).toBe("number");
      }
      // The kinds of mapping add up to (nearly) the whole resident set, as the kernel counts it.
      expect(line.glibcPool! + line.anonymous! + line.files!).toBeLessThanOrEqual(line.rss! + 1);
      expect(line.glibcPool! + line.anonymous! + line.files!).toBeGreaterThan(line.rss! * 0.8);
      expect(line.files!).toBeGreaterThan(1); // node itself is a mapped file
    }
    // The buffers it keeps (outside V8's heap) show as they grow.
    expect(lines.at(-1)!.external!).toBeGreaterThan(lines[0]!.external!);
  });

  it("the report takes each server's sample at its RSS peak and its last one, skipping a line cut short", async () => {
    const sample = (t: number, rss: number, heapCommitted: number, anonymous: number) =>
      JSON.stringify({ t, rss, heapCommitted, heapUsed: heapCommitted - 10, oldSpace: 40, codeSpace: 5, largeObjects: 16, external: 10, glibcPool: 70, anonymous, files: 55 });
    writeFileSync(path.join(dir, "app-postgres-large.jsonl"), [sample(1, 200, 80, 75), sample(2, 240, 100, 115), sample(3, 210, 90, 85), '{"t":4,"rss":2'].join("\n"));
    vi.stubEnv("BENCH_MEMORY_LOG", dir);
    vi.resetModules();
    const { memoryLogTable } = await import("@/bench/memory-log");
    const table = memoryLogTable()!;
    const rows = table.rows.filter((row) => row[0] === "app-postgres-large");
    const column = (name: string) => table.header.indexOf(name);
    expect(rows.map((row) => [row[column("when")], row[column("RSS MB")]])).toEqual([
      ["peak", 240],
      ["end", 210],
    ]);
    expect(rows[0]![column("samples")]).toBe(3);
    expect(rows[0]![column("V8 heap committed (used) MB")]).toBe("100 (90)");
    // Anonymous memory beyond V8's heap: 115 − 100.
    expect(rows[0]![column("other anonymous MB (about)")]).toBe(15);
    vi.unstubAllEnvs();
  });
});
