import { describe, expect, it } from "vitest";
import { backoffDelay } from "@/lib/domain/retry";

describe("backoffDelay", () => {
  it("waits 5 s, 30 s, 2 min, 10 min, 1 h, then 3 h after each failed attempt", () => {
    const middle = (attempts: number) => backoffDelay(attempts, { random: 0.5 });
    expect([1, 2, 3, 4, 5, 6, 9].map(middle)).toEqual([5_000, 30_000, 120_000, 600_000, 3_600_000, 10_800_000, 10_800_000]);
    expect(middle(0)).toBe(5_000);
  });

  it("jitters by ±20 % and scales for tests", () => {
    expect(backoffDelay(2, { random: 0 })).toBe(24_000);
    expect(backoffDelay(2, { random: 0.999_999 })).toBe(36_000);
    expect(backoffDelay(2, { random: 0.5, scale: 0.001 })).toBe(30);
    expect(backoffDelay(1, { random: 0, scale: 1e-9 })).toBe(1);
  });
});
