// Settings of `npm run bench`, in one place. Every knob a quick run needs is an environment variable.
import os from "node:os";
import path from "node:path";

export const ROOT = process.cwd();
/** Where a full run's results go (committed). */
export const COMMITTED_RESULTS_DIR = path.join(ROOT, "bench", "results");
/** The benchmark's own build folder, so other builds (`.next`, tests') are never clobbered. */
export const DIST_DIR = ".next-bench";

/** Credentials of the demo seed in the bench databases (never used outside them). */
export const BENCH_API_TOKEN = "bench-api-token-0123456789abcdef";
export const BENCH_ADMIN_PASSWORD = "bench-admin-password";
export const BENCH_USER_EMAIL = "admin@example.com";

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${JSON.stringify(raw)}`);
  return value;
}

function envList(name: string): string[] | null {
  const raw = process.env[name];
  if (!raw) return null;
  return raw.split(",").map((s) => s.trim()).filter(Boolean);
}

/** Any of these set makes a quick (partial) run, whose results must not replace the committed ones. */
const QUICK_KNOBS = ["BENCH_SAMPLES", "BENCH_EMBEDDED_SAMPLES", "BENCH_DURATION", "BENCH_WARMUP", "BENCH_CONNECTIONS", "BENCH_DATABASES", "BENCH_SCENARIOS", "BENCH_SKIP_BUILD", "BENCH_LOG_LEVEL", "BENCH_HOSTILE_DURATION", "BENCH_CPU_PROF", "BENCH_MEMORY_LOG", "BENCH_NODE_FLAGS"];
export const quickRun = QUICK_KNOBS.filter((k) => process.env[k] !== undefined && process.env[k] !== "");

/**
 * bench/results/ for a full run; a quick run (any BENCH_* knob set) writes to a temporary folder
 * instead, or to BENCH_RESULTS_DIR.
 */
export const RESULTS_DIR =
  process.env.BENCH_RESULTS_DIR ||
  (process.env.BENCH_LABEL || !quickRun.length ? COMMITTED_RESULTS_DIR : path.join(os.tmpdir(), "contracts-bench-results"));

/**
 * `BENCH_LABEL=before` writes `before.json`, `before.md`, `before-p99.svg`, `before-explain.txt` to
 * bench/results/ (even with quick knobs), to be kept: a later run's latest.md compares itself with
 * bench/results/before.json. Without a label: latest.json, latest.md, p99.svg, explain.txt.
 */
export const LABEL = process.env.BENCH_LABEL ? process.env.BENCH_LABEL.replace(/[^a-z0-9_-]/gi, "") || null : null;
export const OUTPUT = LABEL
  ? { json: `${LABEL}.json`, md: `${LABEL}.md`, svg: `${LABEL}-p99.svg`, explain: `${LABEL}-explain.txt` }
  : { json: "latest.json", md: "latest.md", svg: "p99.svg", explain: "explain.txt" };
/** The run a later run compares itself with (written with BENCH_LABEL=before). */
export const BEFORE_JSON = path.join(COMMITTED_RESULTS_DIR, "before.json");

export const settings = {
  /** Seconds of measured load per sample. */
  durationSec: envNumber("BENCH_DURATION", 5),
  /**
   * Seconds of unmeasured load before a server's first sample of a scenario (its later samples
   * find it warm: same route, same statements, compiled code).
   */
  warmupSec: envNumber("BENCH_WARMUP", 2),
  connections: Math.round(envNumber("BENCH_CONNECTIONS", 16)),
  /**
   * Measurements per scenario and server (default 3), in the same order every sample (reference,
   * app, floor: bench/order.ts); reported as the median with the spread.
   */
  samples: Math.round(envNumber("BENCH_SAMPLES", 3)),
  /**
   * The same on the embedded database (default 1): its rows are reported, not held to the targets,
   * and a second and third sample there would make the whole run twice as long as 15 minutes.
   */
  embeddedSamples: Math.round(envNumber("BENCH_EMBEDDED_SAMPLES", 1)),
  /** `postgres`, `pglite` or both (default). */
  databases: (envList("BENCH_DATABASES") ?? ["postgres", "pglite"]) as ("postgres" | "pglite")[],
  /** Only these scenario ids (default: all). */
  scenarios: envList("BENCH_SCENARIOS"),
  /** Reuse an existing `.next-bench` build (development of the bench itself). */
  skipBuild: process.env.BENCH_SKIP_BUILD === "1",
  /** Seconds of the hostile-input scenario (memory). */
  hostileSec: envNumber("BENCH_HOSTILE_DURATION", 10),
  /**
   * Seconds the app idles before each RSS reading after a round of hostile input (the last is its
   * RSS "after"): time for V8 to shrink an idle heap by itself, as it would on any quiet server.
   */
  idleSec: 20,
  /** The app's log level under load (its per-request log line is part of what it costs). */
  serverLogLevel: process.env.BENCH_LOG_LEVEL ?? "info",
};

/** A database URL on this machine: loopback, or a Unix socket (`?host=/path`). */
export function isLocalDatabase(url: URL): boolean {
  const host = url.searchParams.get("host") ?? url.hostname;
  return host === "" || host.startsWith("/") || ["127.0.0.1", "localhost", "[::1]"].includes(host);
}

/**
 * The PostgreSQL server: DATABASE_URL's database when given, else `contracts_bench` on the local
 * server. Only one on this machine: the benchmark loads 100,000 contracts into it and drives it
 * flat out, which it must not do to a server elsewhere.
 */
export function postgresUrls(): { large: string; small: string; admin: string } {
  const given = process.env.DATABASE_URL;
  const large = new URL(given || "postgresql://postgres@127.0.0.1:5432/contracts_bench");
  if (!isLocalDatabase(large)) throw new Error(`DATABASE_URL must point at a PostgreSQL server on this machine (loopback or a Unix socket) for the benchmark, not ${large.host}`);
  const name = decodeURIComponent(large.pathname.replace(/^\//, "")) || "contracts_bench";
  const small = new URL(large);
  small.pathname = `/${name}_small`;
  // CREATE/DROP DATABASE run from the server's maintenance database (no table of it is touched).
  const admin = new URL(large);
  admin.pathname = "/postgres";
  return { large: large.toString(), small: small.toString(), admin: admin.toString() };
}

/**
 * The servers under test inherit the benchmark's environment: without an SMTP server in it they keep
 * their mail in the database (the data sets hold no webhook subscriptions), so nothing leaves this machine.
 */
export function sendNothingOut(): void {
  delete process.env.SMTP_URL;
}

export const PGLITE_DIRS = {
  large: path.join(ROOT, ".data", "bench-pglite"),
  small: path.join(ROOT, ".data", "bench-pglite-small"),
};

/** Samples per scenario and server on this database. */
export const samplesOn = (kind: "postgres" | "pglite"): number => (kind === "pglite" ? settings.embeddedSamples : settings.samples);

export const log = (...args: unknown[]) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...args);
