// The order in which one scenario's servers are measured (bench/run.ts `measure`).

/**
 * One sample's servers, in the order they are measured. The caller lists the app first and what it
 * is compared with second (the reference route; in the rate-limit comparison, the app with the
 * limit on), then the rest (the floor). This measures the second, then the app, then the rest.
 */
export function sampleOrder<T>(servers: readonly T[]): T[] {
  const [first, second, ...rest] = servers;
  if (first === undefined) return [];
  if (second === undefined) return [first];
  return [second, first, ...rest];
}

/**
 * Every measurement of a scenario, in run order: `samples` samples, each in `sampleOrder`. The
 * order is the same in every sample, so each server waits while the same others run before each
 * of its samples, and the app is measured right after what it is compared with.
 *
 * The order used to rotate per sample (app, reference, floor; reference, floor, app; …). The app
 * and the reference then each waited about 24 s before one of their samples and 6 s before
 * another, and the app woke up more slowly: docs/performance.md, "Sampling".
 */
export function sampleSequence<T>(servers: readonly T[], samples: number): { sample: number; server: T }[] {
  const order = sampleOrder(servers);
  return Array.from({ length: samples }, (_, sample) => order.map((server) => ({ sample, server }))).flat();
}
