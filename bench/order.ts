// The order in which one scenario's servers are measured (bench/run.ts `measure`).

/**
 * The servers of one sample, in the order they are measured: the first given (the app) right after
 * the second (what it is compared with first: the reference route; or, for the rate-limit
 * comparison, the other app), then the rest (the floor). The same order in every sample, so each
 * server waits between two of its samples while the same others run: every server has idled
 * equally long when its next sample starts, and the app is measured next to the reference.
 *
 * An order that rotated per sample (app, reference, floor; reference, floor, app; floor, app,
 * reference) gave each server, in turn, a long wait (the other two twice) and a short one: in 14
 * committed runs the app's sample after its long wait read its throughput against the reference
 * 0.73–0.80× for the detail, the data fields and the PUT, against 0.86–0.96× in the other two,
 * and its CPU per request 7–12 % above its mean there (the reference's 0–5 %): one sample in three
 * measured how the servers wake, not their steady state (docs/performance.md, "Sampling").
 */
export function sampleOrder<T>(servers: readonly T[]): T[] {
  const [first, second, ...rest] = servers;
  if (first === undefined) return [];
  if (second === undefined) return [first];
  return [second, first, ...rest];
}
