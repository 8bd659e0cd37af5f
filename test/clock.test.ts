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

test("a background job a change under atTime wakes runs on the real clock (the demo seed's signatures kick the seal job)", async () => {
  const { runPeriodically } = await import("@/lib/services/jobs/run-periodically");
  const { jobWakeup } = await import("@/lib/services/jobs/job-wakeup");
  const wakeup = jobWakeup(`clock-test-${Date.now()}`);
  const seen: number[] = [];
  const job = runPeriodically("clock-test", 3_600_000, async () => void seen.push(nowMs()), { wakeOn: wakeup.on });
  await job.idle();
  const before = Date.now();
  // A run kicked while one is under way runs right after it: both on the real clock.
  atTime(0, () => wakeup.notify());
  atTime(0, () => wakeup.notify());
  await job.idle();
  await job.stop();
  expect(seen.length).toBe(3);
  expect(seen.slice(1).every((ms) => ms >= before)).toBe(true);
});
