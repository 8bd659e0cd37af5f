import { createRequire } from "node:module";
import { cruise, type IConfiguration } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

// The rules themselves, stated once (docs/architecture.md "Layers").
const config = createRequire(import.meta.url)("../../.dependency-cruiser.cjs") as IConfiguration & { options: Record<string, unknown> };

describe("dependency rules", () => {
  it("has no upward import and no import cycle", async () => {
    const { options, forbidden } = config;
    const result = await cruise(["lib", "app", "instrumentation.ts"], {
      ...options,
      ruleSet: { forbidden },
      validate: true,
    });
    if (typeof result.output === "string") throw new Error(result.output);
    const violations = result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(violations).toEqual([]);
    // The rules really ran over the code base.
    expect(result.output.summary.totalCruised).toBeGreaterThan(150);
  }, 60_000);
});
