import { expect, test } from "vitest";
import { atTime, now, nowMs } from "@/lib/clock";

test("now() is the real time outside atTime, the given instant inside it, through awaits and nesting", async () => {
  const before = Date.now();
  expect(now().getTime()).toBeGreaterThanOrEqual(before);
  const at = new Date("2026-01-02T03:04:05.678Z");
  const seen = await atTime(at, async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const inner = atTime(at.getTime() + 60_000, () => nowMs());
    return [now().toISOString(), inner, nowMs()];
  });
  expect(seen).toEqual(["2026-01-02T03:04:05.678Z", at.getTime() + 60_000, at.getTime()]);
  expect(now().getTime()).toBeGreaterThanOrEqual(before);
});

test("code running beside atTime keeps the real clock", async () => {
  let outside = 0;
  await Promise.all([
    atTime(0, () => new Promise((resolve) => setTimeout(resolve, 10))),
    new Promise<void>((resolve) => setTimeout(() => {
      outside = nowMs();
      resolve();
    }, 5)),
  ]);
  expect(outside).toBeGreaterThan(1e12);
  expect(() => atTime(Number.NaN, () => 0)).toThrow(RangeError);
});
