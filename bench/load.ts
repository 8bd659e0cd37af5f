// Load generation with autocannon (as a library): a warm-up, then a bounded measured run with a
// fixed number of keep-alive connections. Every response's latency is kept, so p50/p95/p99 are exact.
import autocannon, { type AutocannonRequest, type AutocannonResult } from "autocannon";
import { BENCH_API_TOKEN, BENCH_USER_EMAIL } from "./config";
import { cpuMs, loadAverage, sampleRss } from "./processes";
import { median } from "./stats";

export interface RequestSpec {
  method: "GET" | "PUT" | "POST";
  path: string;
  body?: unknown;
  /** A body sent as is (e.g. malformed JSON), instead of `body` as JSON. */
  rawBody?: string;
  /** Headers replacing the default ones of the same name (e.g. another token). */
  headers?: Record<string, string>;
}

/** Which server answers: the app, the reference route inside the app's process, the floor, the app with the rate limit on. */
export type ServerKind = "app" | "reference" | "floor" | "app-rate-limited";

export interface Scenario {
  id: string;
  title: string;
  /** What the targets call it. */
  kind: "list" | "detail" | "update" | "create" | "baseline" | "hostile";
  /** The i-th request (ids rotate with i). */
  make(i: number): RequestSpec;
  /** Error answers are the point (hostile input): no probe, and non-2xx are not failures. */
  expectErrors?: boolean;
}

export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
}

export interface ScenarioResult {
  id: string;
  title: string;
  kind: Scenario["kind"];
  server: ServerKind;
  /** `ok`, or `unavailable` when the route answered its first request with an error (not measured). */
  status: "ok" | "unavailable";
  example: string;
  durationSec: number;
  connections: number;
  requests: number;
  rps: number;
  latencyMs: LatencySummary;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Non-2xx answers and socket errors during the warm-up (not in the latencies, but they count as errors). */
  warmupNon2xx: number;
  warmupErrors: number;
  /** Failed first requests before the load (retried up to 3 times). */
  probeFailures: number;
  statusCodes: Record<string, number>;
  /** Peak VmRSS of the server process during warm-up and measurement. */
  rssPeakMb: number | null;
  /**
   * CPU time (user + system) the server process spent per request during the measurement: the
   * framework's cost without the database's, and less sensitive to a busy machine than req/s.
   * On the embedded database the app's process also runs the database.
   */
  serverCpuMsPerRequest: number | null;
  /** 1-minute load average of the machine when the measurement ended (2 cores: above 2 means contention). */
  loadAverage: number | null;
  /** For `unavailable`: what the first request answered. */
  note?: string;
  /** Response size of the first request, bytes. */
  responseBytes?: number;
  /**
   * Each measurement of this scenario on this server, in run order (`rps`, `latencyMs`, CPU and the
   * error counts above are the medians and sums over them; see combineSamples).
   */
  samples?: { rps: number; p50: number; p99: number; cpuMsPerRequest: number | null; loadAverage: number | null }[];
  /** req/s over the samples: lowest, highest, and (highest − lowest) ÷ median. */
  rpsSpread?: { min: number; max: number; relative: number };
}

/**
 * One result from several measurements of one scenario on one server: throughput, latencies and CPU
 * per request are medians, error counts are sums, RSS the highest; the samples and the spread are kept.
 * An `unavailable` sample makes the whole result unavailable.
 */
export function combineSamples(samples: ScenarioResult[]): ScenarioResult {
  const failed = samples.find((r) => r.status !== "ok");
  if (failed || samples.length === 0) return failed ?? samples[0]!;
  const sum = (f: (r: ScenarioResult) => number) => samples.reduce((n, r) => n + f(r), 0);
  const cpu = samples.map((r) => r.serverCpuMsPerRequest).filter((v): v is number => v !== null);
  const rss = samples.map((r) => r.rssPeakMb).filter((v): v is number => v !== null);
  const rps = median(samples.map((r) => r.rps));
  const min = Math.min(...samples.map((r) => r.rps));
  const max = Math.max(...samples.map((r) => r.rps));
  const codes: Record<string, number> = {};
  for (const r of samples) for (const [code, n] of Object.entries(r.statusCodes)) codes[code] = (codes[code] ?? 0) + n;
  return {
    ...samples[0]!,
    requests: sum((r) => r.requests),
    rps,
    latencyMs: {
      ...samples[0]!.latencyMs,
      p50: median(samples.map((r) => r.latencyMs.p50)),
      p95: median(samples.map((r) => r.latencyMs.p95)),
      p99: median(samples.map((r) => r.latencyMs.p99)),
    },
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    warmupNon2xx: sum((r) => r.warmupNon2xx),
    warmupErrors: sum((r) => r.warmupErrors),
    probeFailures: sum((r) => r.probeFailures),
    statusCodes: codes,
    rssPeakMb: rss.length ? Math.max(...rss) : null,
    serverCpuMsPerRequest: cpu.length ? Math.round(median(cpu) * 1000) / 1000 : null,
    loadAverage: samples.at(-1)!.loadAverage,
    samples: samples.map((r) => ({ rps: r.rps, p50: r.latencyMs.p50, p99: r.latencyMs.p99, cpuMsPerRequest: r.serverCpuMsPerRequest, loadAverage: r.loadAverage })),
    rpsSpread: { min, max, relative: rps > 0 ? Math.round(((max - min) / rps) * 1000) / 1000 : 0 },
  };
}

export interface LoadOptions {
  durationSec: number;
  warmupSec: number;
  connections: number;
}

const baseHeaders: Record<string, string> = {
  "x-service-api-token": BENCH_API_TOKEN,
  "x-service-user-email": BENCH_USER_EMAIL,
  accept: "application/json",
};

/** Rewrites a scenario's `/v1/…` path for the server (the reference route lives under another prefix). */
export type PathRewrite = (path: string) => string;
const samePath: PathRewrite = (p) => p;

function headersOf(spec: RequestSpec): Record<string, string> {
  const headers = { ...baseHeaders, ...(spec.body !== undefined || spec.rawBody !== undefined ? { "content-type": "application/json" } : {}), ...spec.headers };
  return headers;
}

function bodyOf(spec: RequestSpec): string | undefined {
  return spec.rawBody ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body));
}

function toAutocannon(spec: RequestSpec, req: AutocannonRequest, rewrite: PathRewrite): AutocannonRequest {
  req.method = spec.method;
  req.path = rewrite(spec.path);
  req.body = bodyOf(spec);
  req.headers = headersOf(spec);
  return req;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

const round = (v: number) => Math.round(v * 100) / 100;

function runAutocannon(
  baseUrl: string,
  rewrite: PathRewrite,
  scenario: Scenario,
  counter: { i: number },
  durationSec: number,
  connections: number,
  onLatency?: (ms: number) => void,
): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections,
        duration: durationSec,
        timeout: 30,
        headers: baseHeaders,
        requests: [{ setupRequest: (req) => toAutocannon(scenario.make(counter.i++), req, rewrite) }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (onLatency) instance.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => onLatency(ms));
  });
}

/** One request outside the load, to tell a missing route (not measured) from a slow one. */
async function probe(baseUrl: string, spec: RequestSpec, rewrite: PathRewrite): Promise<{ ok: boolean; status: number; text: string; bytes: number }> {
  const res = await fetch(baseUrl + rewrite(spec.path), {
    method: spec.method,
    headers: headersOf(spec),
    body: bodyOf(spec),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  return { ok: res.ok, status: res.status, text, bytes: Buffer.byteLength(text) };
}

export async function runScenario(
  baseUrl: string,
  server: ServerKind,
  pid: number,
  scenario: Scenario,
  options: LoadOptions,
  rewrite: PathRewrite = samePath,
): Promise<ScenarioResult> {
  const counter = { i: 0 };
  const first = scenario.make(counter.i++);
  const base = {
    id: scenario.id,
    title: scenario.title,
    kind: scenario.kind,
    server,
    example: `${first.method} ${rewrite(first.path)}`,
    durationSec: options.durationSec,
    connections: options.connections,
  };
  let check = await probe(baseUrl, first, rewrite);
  let probeFailures = 0;
  for (let attempt = 1; !check.ok && !scenario.expectErrors && attempt < 3; attempt++) {
    probeFailures++;
    await new Promise((r) => setTimeout(r, 500));
    check = await probe(baseUrl, scenario.make(counter.i++), rewrite);
  }
  if (scenario.expectErrors) check = { ...check, ok: true };
  if (!check.ok) {
    return {
      ...base,
      status: "unavailable",
      requests: 0,
      rps: 0,
      latencyMs: { p50: 0, p95: 0, p99: 0, mean: 0, max: 0 },
      non2xx: probeFailures + 1,
      errors: 0,
      timeouts: 0,
      warmupNon2xx: 0,
      warmupErrors: 0,
      probeFailures: probeFailures + 1,
      statusCodes: { [check.status]: 1 },
      rssPeakMb: null,
      serverCpuMsPerRequest: null,
      loadAverage: loadAverage(),
      note: `first request answered ${check.status}: ${check.text.slice(0, 300)}`,
    };
  }

  const rss = sampleRss(pid);
  const warmup = options.warmupSec > 0 ? await runAutocannon(baseUrl, rewrite, scenario, counter, options.warmupSec, options.connections) : null;
  const cpuBefore = cpuMs(pid);
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  const result = await runAutocannon(baseUrl, rewrite, scenario, counter, options.durationSec, options.connections, (ms) => {
    if (n === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[n++] = ms;
  });
  const rssPeakMb = rss.stop();
  const cpuAfter = cpuMs(pid);
  const sorted = latencies.subarray(0, n).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  const elapsedSec = (result.finish.getTime() - result.start.getTime()) / 1000 || options.durationSec;
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
  return {
    ...base,
    status: "ok",
    requests: n,
    rps: round(n / elapsedSec),
    latencyMs: {
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
      mean: round(n ? sum / n : 0),
      max: round(sorted[n - 1] ?? 0),
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    warmupNon2xx: warmup?.non2xx ?? 0,
    warmupErrors: warmup?.errors ?? 0,
    probeFailures,
    statusCodes,
    rssPeakMb: rssPeakMb === null ? null : round(rssPeakMb),
    serverCpuMsPerRequest: cpuBefore !== null && cpuAfter !== null && n > 0 ? round((cpuAfter - cpuBefore) / n) : null,
    loadAverage: loadAverage(),
    responseBytes: check.bytes,
  };
}
