// The time a change happens at. Every change a service makes is dated by `now()`, so code that must
// act at another time (the demo seed, which makes contracts published weeks ago; tests of what time
// does, such as the overdue check) runs the product's own operations under `atTime`, and every
// timestamp they write (rows, audit events, mail) tells the same story. Outside `atTime` it is the
// real clock. What coordinates processes (leases, retry times, the webhook cursor's settling) stays
// on the database's clock: it is about when things really happen, not the time a change is dated.
import { AsyncLocalStorage } from "node:async_hooks";

const fixed = new AsyncLocalStorage<number>();

/** The current time: the real one, or the instant an enclosing `atTime` set. */
export function now(): Date {
  return new Date(nowMs());
}

/** `now()` in milliseconds since the epoch (instead of `Date.now()`). */
export function nowMs(): number {
  return fixed.getStore() ?? Date.now();
}

/**
 * Runs `fn` with `now()` fixed at `at`: everything it calls and awaits (transactions included) sees
 * that instant; code outside it, concurrent requests included, keeps the real clock. Nested calls
 * override the outer one. The instant does not advance: call it again for a later step.
 */
export function atTime<T>(at: Date | number, fn: () => T): T {
  const ms = typeof at === "number" ? at : at.getTime();
  if (!Number.isFinite(ms)) throw new RangeError(`atTime: not a time: ${String(at)}`);
  return fixed.run(ms, fn);
}

/**
 * Runs `fn` on the real clock, whatever `atTime` encloses the caller: for work that outlives the
 * change that started it (a background job's run that a change under `atTime` woke up).
 */
export function realTime<T>(fn: () => T): T {
  return fixed.exit(fn);
}
