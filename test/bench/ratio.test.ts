import { describe, expect, it } from "vitest";
import { checkTargets, ratio, type DatabaseRun } from "@/bench/report";
import type { ScenarioResult, ServerKind } from "@/bench/load";

// The benchmark's throughput ratios (bench/report.ts `ratio`): the median of per-sample ratios, so
// a machine whose speed drifts during the run moves both sides of each ratio alike.
const result = (server: ServerKind, samples: number[]): ScenarioResult => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    id: "contract-detail",
    server,
    status: "ok",
    rps: sorted[Math.floor(sorted.length / 2)]!,
    samples: samples.map((rps) => ({ rps, p50: 1, p99: 2, cpuMsPerRequest: null, loadAverage: null })),
    latencyMs: { p50: 1, p95: 2, p99: 2 },
    serverCpuMsPerRequest: null,
  } as unknown as ScenarioResult;
};
const run = (app: number[], reference: number[]) => ({ database: "postgres", results: [result("app", app), result("reference", reference)] }) as unknown as DatabaseRun;

describe("bench ratio", () => {
  it("pairs each sample of the app with the reference's of the same sample", () => {
    // The machine's speed moved between samples: two samples say 0.90×, one (the reference in a
    // fast moment) 0.67×; the medians (4,000 against 5,500) would say 0.73×.
    expect(ratio(run([5_000, 3_000, 4_000], [5_500, 3_300, 6_000]), "contract-detail", "reference")).toBeCloseTo(5_000 / 5_500, 12);
    // The median of the ratios, not their mean.
    expect(ratio(run([900, 900, 900], [1_000, 1_000, 300]), "contract-detail", "reference")).toBeCloseTo(0.9, 12);
  });

  it("falls back to the ratio of the two with one sample, and has none without the other server", () => {
    expect(ratio(run([800], [1_000]), "contract-detail", "reference")).toBeCloseTo(0.8, 12);
    expect(ratio(run([800, 900], [1_000, 1_000]), "contract-detail", "floor")).toBeNull();
  });

  it("checks a target on the ratio itself, not on the ratio rounded for the tables", () => {
    // The app's three samples against a reference answering 1,000 req/s in each: its check.
    const against = (app: number[]) =>
      checkTargets([run(app, [1_000, 1_000, 1_000])], null, 0).find((c) => c.target === "contract-detail: app throughput ≥ 0.85× the reference route's");
    // Per sample 0.846, 0.846 and 0.9: the median 0.846, which two decimals would show as 0.85.
    expect(against([846, 846, 900])).toMatchObject({ met: false, value: expect.stringMatching(/^0\.846× \(median of 3 per-sample ratios;/) });
    // 0.84997 (a real run's) is missed and shown cut, not rounded up to the limit.
    expect(against([849.97, 849.97, 900])).toMatchObject({ met: false, value: expect.stringMatching(/^0\.849× /) });
    expect(against([850, 850, 900])?.met).toBe(true);
  });

  it("checks the floor's and the rate limit's targets on the ratio itself too, and shows a ratio at its limit as the limit", () => {
    // Against the floor: exactly 0.55 (contract-detail's limit) is met and shown as 0.550, not cut to 0.549.
    const floorCheck = (app: number[]) => {
      const floorRun = { database: "postgres", results: [result("app", app), result("floor", [1_000, 1_000, 1_000])] } as unknown as DatabaseRun;
      return checkTargets([floorRun], null, 0).find((c) => c.target.startsWith("contract-detail: app throughput") && c.target.includes("floor"));
    };
    expect(floorCheck([550, 550, 550])?.value).toMatch(/^0\.550× /);
    expect(floorCheck([550, 550, 550])?.met).toBe(true);
    // 0.5499 is below it, though two decimals would show 0.55.
    expect(floorCheck([549.9, 549.9, 600])).toMatchObject({ met: false, value: expect.stringMatching(/^0\.549× /) });
    // Rate limit on against off: 0.896 is below 0.9, though two decimals would show 0.90.
    const check = rateLimitCheck(result("app", [1_000, 1_000, 1_000]), result("app-rate-limited" as ServerKind, [896, 896, 950]));
    expect(check?.value).toMatch(/^0\.896× /);
    expect(check?.met).toBe(false);
  });
});

const rateLimitCheck = (off: ScenarioResult, on: ScenarioResult) => {
  const limited = { database: "postgres", results: [], rateLimit: { limitPerMinute: 1, results: [off, on], rssPeakMb: null } } as unknown as DatabaseRun;
  return checkTargets([limited], null, 0).find((c) => c.target.includes("rate limit on"));
};

describe("rate limit on against off", () => {
  it("is read as the median of the per-sample ratios, as app against reference is", () => {
    const off = result("app", [5_000, 3_000, 4_000]);
    const on = result("app-rate-limited" as ServerKind, [4_600, 2_800, 3_000]);
    // Per sample 0.92, 0.93 and 0.75: the median 0.92. The medians (3,000 against 4,000) would say 0.75.
    const check = rateLimitCheck(off, on);
    expect(check?.value).toMatch(/^0\.920× \(median of 3 per-sample ratios; medians on 3000 vs off 4000 req\/s = 0\.75×;/);
    expect(check?.met).toBe(true);
  });

  it("says so when it falls back to the ratio of the medians (samples that do not pair)", () => {
    const check = rateLimitCheck(result("app", [5_000, 3_000, 4_000]), result("app-rate-limited" as ServerKind, [3_000, 3_500]));
    expect(check?.value).toMatch(/^0\.875× \(on 3500 vs off 4000 req\/s;/);
    expect(check?.met).toBe(false);
  });
});
