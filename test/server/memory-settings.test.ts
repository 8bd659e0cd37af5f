// server/memory-settings.mjs: the process restarts itself once, same PID, with its start-time
// memory settings, unless the caller gave them (or turned the restart off).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const MODULE = path.join(process.cwd(), "server", "memory-settings.mjs");
const PROBE = `import ${JSON.stringify(MODULE)}; console.log(JSON.stringify({ argv: process.execArgv.filter((a) => a.startsWith("--max")), arena: process.env.MALLOC_ARENA_MAX ?? null }));`;

function run(execArgv: string[], env: Record<string, string> = {}) {
  const out = execFileSync(process.execPath, [...execArgv, "--input-type=module", "-e", PROBE], {
    env: { ...withoutSettings(), ...env },
    encoding: "utf8",
  });
  return JSON.parse(out.trim()) as { argv: string[]; arena: string | null };
}

function withoutSettings() {
  const env = { ...process.env };
  delete env.CONTRACTS_MEMORY_SETTINGS;
  delete env.MALLOC_ARENA_MAX;
  return env;
}

describe("start-time memory settings", () => {
  it("restarts once with a 4 MB young generation and MALLOC_ARENA_MAX=1", () => {
    const { argv, arena } = run([]);
    expect(argv).toContain("--max-semi-space-size=4");
    expect(arena).toBe("1");
  });

  it("keeps what the caller gave, and does nothing when turned off", () => {
    expect(run(["--max-semi-space-size=16"], { MALLOC_ARENA_MAX: "8" })).toMatchObject({ argv: ["--max-semi-space-size=16"], arena: "8" });
    expect(run([], { CONTRACTS_MEMORY_SETTINGS: "off" })).toMatchObject({ argv: [], arena: null });
  });
});
