import { expect, it, vi } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { isoTime, nowMs } from "@/lib/clock";

// lib/clock.ts: the wall clock read without Date (which Next wraps in the server), for what runs
// on every request.

it("isoTime writes what toISOString writes, whatever second came before", () => {
  const times = [0, 9, 10, 99, 100, 999, 1_000, 1_001, 59_999, 60_000, 1_764_000_000_000, 1_764_000_000_007, 1_764_000_000_070, 1_764_000_000_700, 1_764_000_001_000, 4_102_444_799_999];
  // Forwards, backwards and alternating, so a second kept from the call before is never reused wrongly.
  for (const ms of [...times, ...[...times].reverse(), ...times.flatMap((t) => [t, 1_764_000_000_500])]) {
    expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
  }
});

it("nowMs is Date.now() within a millisecond, and follows a clock that was set within a second", async () => {
  for (let i = 0; i < 1000; i++) {
    const before = Date.now();
    const now = nowMs();
    const after = Date.now();
    expect(now).toBeGreaterThanOrEqual(before - 1);
    expect(now).toBeLessThanOrEqual(after + 1);
  }
  // The system clock is set an hour ahead: within a second nowMs says so too.
  const realNow = Date.now.bind(Date);
  const spy = vi.spyOn(Date, "now").mockImplementation(() => realNow() + 3_600_000);
  try {
    await sleep(1_100);
    expect(Math.abs(nowMs() - (realNow() + 3_600_000))).toBeLessThanOrEqual(2);
  } finally {
    spy.mockRestore();
  }
  await sleep(1_100);
  expect(Math.abs(nowMs() - Date.now())).toBeLessThanOrEqual(2);
});
