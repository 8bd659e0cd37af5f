// server/malloc-trim.mjs: glibc's free memory goes back to the system (malloc_trim, through Koffi).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_TRIM_INTERVAL_MS, parseTrimInterval } from "@/server/malloc-trim.mjs";

const MODULE = path.join(process.cwd(), "server", "malloc-trim.mjs");

/**
 * In a process of its own: ~120 MB of 32 KB blocks from glibc's main pool, every tenth kept, the
 * rest freed, so the free memory lies between blocks in use, where `free` cannot give it back.
 * Then `startMallocTrim(intervalMs)` (or nothing, with null) and a wait; answers the pool's
 * resident MB (`[heap]` in /proc/self/smaps) before and after.
 */
function fragmentThenWait(intervalMs: number | null): { before: number; after: number; started: boolean } {
  const probe = `
    import { readFileSync } from "node:fs";
    import { startMallocTrim } from ${JSON.stringify(MODULE)};
    const pool = () => {
      const smaps = readFileSync("/proc/self/smaps", "utf8");
      const at = smaps.indexOf("[heap]");
      return at < 0 ? 0 : Number(/Rss:\\s+(\\d+) kB/.exec(smaps.slice(at))[1]) / 1024;
    };
    let blocks = Array.from({ length: 3840 }, () => Buffer.alloc(32 * 1024, 1));
    const kept = blocks.filter((_, i) => i % 10 === 0);
    blocks = null;
    globalThis.gc(); globalThis.gc();
    await new Promise((r) => setTimeout(r, 100));
    const before = pool();
    const trimmer = ${intervalMs === null ? "null" : `startMallocTrim(${intervalMs})`};
    await new Promise((r) => setTimeout(r, 400));
    trimmer?.stop();
    console.log(JSON.stringify({ before, after: pool(), started: trimmer !== null, kept: kept.length }));
  `;
  const out = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", probe], {
    env: { ...process.env, MALLOC_ARENA_MAX: "1" },
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

describe.runIf(process.platform === "linux")("malloc_trim every MEMORY_TRIM_INTERVAL_MS", () => {
  it("gives the free memory in the middle of glibc's pool back to the system", () => {
    const trimmed = fragmentThenWait(100);
    expect(trimmed.started).toBe(true);
    expect(trimmed.before).toBeGreaterThan(80);
    expect(trimmed.after).toBeLessThan(trimmed.before / 3);
  });

  it("without it (or with 0, off) the same memory stays with the process", () => {
    const kept = fragmentThenWait(null);
    expect(kept.before).toBeGreaterThan(80);
    expect(kept.after).toBeGreaterThan(kept.before * 0.8);
    const off = fragmentThenWait(0);
    expect(off.started).toBe(false);
    expect(off.after).toBeGreaterThan(off.before * 0.8);
  });
});

describe("MEMORY_TRIM_INTERVAL_MS", () => {
  it.each([
    [undefined, DEFAULT_TRIM_INTERVAL_MS],
    ["", DEFAULT_TRIM_INTERVAL_MS],
    ["0", 0],
    ["100", 100],
    ["3600000", 3_600_000],
  ])("%j is %d ms", (raw, ms) => {
    expect(parseTrimInterval(raw)).toBe(ms);
  });

  it.each(["often", "-1", "1.5", "99", "3600001", " 100", "1e4", "0x10", "99999999999"])("%j is refused, naming the variable", (raw) => {
    expect(() => parseTrimInterval(raw)).toThrow(/^MEMORY_TRIM_INTERVAL_MS: expected/);
  });
});
