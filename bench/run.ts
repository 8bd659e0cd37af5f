// `npm run bench`: build, make sure the data sets exist, start the app (and the floor) on each
// database, check that app, reference route and floor give the same answers, drive the scenarios
// against each (alternating), run the rate-limited app and the hostile input, check the issue's
// targets, write bench/results/*.
//
// Quick runs: BENCH_DURATION=2 BENCH_WARMUP=1 BENCH_DATABASES=postgres BENCH_SCENARIOS=contract-detail
// BENCH_SKIP_BUILD=1 (reuse .next-bench). DATABASE_URL picks the PostgreSQL database (default
// postgresql://postgres@127.0.0.1:5432/contracts_bench; the small set goes to `<name>_small`).
// BENCH_LABEL=before writes bench/results/before.* (kept; later runs compare themselves with it).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { BEFORE_JSON, COMMITTED_RESULTS_DIR, DIST_DIR, LABEL, OUTPUT, PGLITE_DIRS, RESULTS_DIR, ROOT, log, postgresUrls, quickRun, samplesOn, sendNothingOut, settings } from "./config";
import { DATASETS, ensureDataset, postgresTarget, type DbTarget } from "./dataset";
import { embeddedDatabaseUrl } from "@/lib/db/embedded";
import { compareAnswers, type CompareTarget } from "./compare";
import { runExplain, summarizeExplain, type ExplainReport } from "./explain";
import { measureContractPdf, type ContractPdfMeasurement } from "./contract-pdf";
import { measureSealedUploadPdf, type SealedUploadMeasurement } from "./sealed-upload-pdf";
import { measureFirstLoadJs, type FirstLoadReport } from "./first-load-js";
import { memoryLogTable } from "./memory-log";
import { sampleSequence } from "./order";
import { combineSamples, runScenario, type LoadOptions, type PathRewrite, type ScenarioResult, type ServerKind } from "./load";
import { memoryBreakdown, rssMb, sampleRss, startApp, startFloor, type AppDatabase, type ServerProcess } from "./processes";
import {
  beforeAfterTable,
  checkTargets,
  comparisonList,
  firstLoadTable,
  hotTable,
  memoryTable,
  p99Chart,
  rateLimitTable,
  scenarioTable,
  table,
  targetTable,
  type BenchReport,
  type DatabaseRun,
} from "./report";
import { FLOOR_SCENARIOS, NEVER_REFUSING_RATE_LIMIT, RATE_LIMIT_SCENARIOS, hostileScenario, loadTargets, scenarios } from "./scenarios";

/** One measurement (or a median of several) as a log line. */
function describe(r: ScenarioResult): string {
  if (r.status !== "ok") return `${r.status}: ${r.note}`;
  const spread = r.rpsSpread ? ` (range ${r.rpsSpread.min.toFixed(0)}–${r.rpsSpread.max.toFixed(0)}, spread ${(r.rpsSpread.relative * 100).toFixed(0)} %)` : "";
  return (
    `${r.rps.toFixed(0).padStart(6)} req/s${spread}  p50 ${r.latencyMs.p50} p95 ${r.latencyMs.p95} p99 ${r.latencyMs.p99} ms  non-2xx ${r.non2xx} errors ${r.errors} ` +
    `(warm-up ${r.warmupNon2xx + r.warmupErrors}, probes ${r.probeFailures})  RSS ${r.rssPeakMb?.toFixed(0)} MB  CPU ${r.serverCpuMsPerRequest} ms/req  load ${r.loadAverage}`
  );
}

const running = new Set<ServerProcess>();
let building: ChildProcess | null = null;
/** The app left alone for `seconds` (V8 shrinks an idle heap by itself) before its RSS is read. */
const idle = (seconds: number) => new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000));

async function stopAll() {
  building?.kill("SIGTERM");
  for (const s of running) {
    await s.stop().catch(() => undefined);
    running.delete(s);
  }
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping the servers this run started`);
    void stopAll().then(() => process.exit(130));
  });
}

/**
 * A run still going after this many minutes is stuck (a full one takes about 14): it stops what it
 * started and fails. Scaled up for runs asked to take longer (more or longer samples).
 */
const DEADLINE_MIN = 45 * Math.max(1, settings.samples / 3, settings.embeddedSamples) * Math.max(1, (settings.durationSec + 1) / 6);
setTimeout(() => {
  log(`still running after ${DEADLINE_MIN.toFixed(0)} min: stopping the servers this run started`);
  void stopAll().then(() => process.exit(1));
}, DEADLINE_MIN * 60_000).unref();

async function started<T extends ServerProcess>(p: Promise<T>): Promise<T> {
  const s = await p;
  running.add(s);
  return s;
}
async function stopped(s: ServerProcess) {
  await s.stop();
  running.delete(s);
}

const selected = (id: string) => !settings.scenarios || settings.scenarios.includes(id);

/**
 * `next build` into `.next-bench`. Next adds the build folder's type globs to tsconfig.json's
 * `include` whenever the folder is not `.next`; that edit is taken out again afterwards, since the
 * benchmark must not change a shared file.
 */
async function build(): Promise<number> {
  const tsconfigPath = path.join(ROOT, "tsconfig.json");
  const before = await readFile(tsconfigPath, "utf8");
  const t0 = performance.now();
  log(`building the production app into ${DIST_DIR} (next build)…`);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = (building = spawn(process.execPath, [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "build"], {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: "production", NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1", BENCH_PAGES: "1" },
        stdio: ["ignore", "inherit", "inherit"],
      }));
      child.on("error", reject);
      child.on("exit", (c) => resolve(c));
    });
    if (code !== 0) throw new Error(`next build failed (exit ${code})`);
  } finally {
    building = null;
    const after = await readFile(tsconfigPath, "utf8");
    const marker = `"${DIST_DIR}/`;
    if (after !== before && !before.includes(marker) && after.includes(marker)) {
      const cleaned = after
        .split("\n")
        .filter((l) => !l.includes(marker))
        .join("\n")
        .replace(/,(\s*\])/g, "$1");
      await writeFile(tsconfigPath, cleaned);
      log(`took ${DIST_DIR}'s entries out of tsconfig.json again (next build adds them)`);
    }
  }
  return (performance.now() - t0) / 1000;
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrls().admin, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** A private folder for an embedded database's socket (the app creates the socket in it). */
function socketFolder(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), "bench-db-"));
}

/** The reference process's settings: no background work; on the embedded database, its pool as the app's there. */
function referenceEnv(kind: "postgres" | "pglite"): Record<string, string> {
  return { BACKGROUND_JOBS: "off", ...(kind === "pglite" ? { BENCH_REFERENCE_EMBEDDED: "1" } : {}) };
}

/** The reference route answers `/v1/x` at `/v1/bench-reference/x` (app/v1/bench-reference, bench builds only). */
export const referencePath: PathRewrite = (p) => p.replace(/^\/v1\//, "/v1/bench-reference/");
const samePath: PathRewrite = (p) => p;

interface Served {
  baseUrl: string;
  pid: number;
  rewrite: PathRewrite;
}

/**
 * The load of sample `i` (from 0): a server's first sample of a scenario after the whole warm-up,
 * each later one after a short one of its own (at most 1 s). Between two samples of one server the
 * others run (about 12 s with the defaults; 6 s in the rate-limit comparison): without it, a sample
 * measured the server waking from that pause, not the steady state (bench/results/history.md).
 */
const laterWarmupSec = (load: LoadOptions) => Math.min(1, load.warmupSec);
const sampleLoad = (load: LoadOptions, i: number): LoadOptions => (i === 0 ? load : { ...load, warmupSec: laterWarmupSec(load) });

/** `samplesOn(kind)` measurements on each server, in the same order every sample (bench/order.ts); the medians. */
async function measure(kind: "postgres" | "pglite", scenario: Parameters<typeof runScenario>[3], servers: [ServerKind, Served][], load: LoadOptions): Promise<ScenarioResult[]> {
  const samples = new Map<ServerKind, ScenarioResult[]>(servers.map(([k]) => [k, []]));
  const n = samplesOn(kind);
  // The same order every sample (bench/order.ts): the app first in `servers`, what it is compared
  // with second.
  for (const { sample: i, server: [server, target] } of sampleSequence(servers, n)) {
    const r = await runScenario(target.baseUrl, server, target.pid, scenario, sampleLoad(load, i), target.rewrite);
    samples.get(server)!.push(r);
    log(`${kind} ${server.padEnd(16)} ${scenario.id.padEnd(28)} sample ${i + 1}/${n} ` + describe(r));
  }
  return servers.map(([server]) => {
    const r = combineSamples(samples.get(server)!);
    log(`${kind} ${server.padEnd(16)} ${scenario.id.padEnd(28)} median of ${samples.get(server)!.length}: ` + describe(r));
    return r;
  });
}

/**
 * The contracts list (offset 0) on the 1,000-contract data set, by an app process of its own: how
 * much of the list's cost grows with the table. Null when the scenario is not selected.
 */
async function measureSmallList(kind: "postgres" | "pglite", contracts: number | undefined, load: LoadOptions): Promise<ScenarioResult | null> {
  const listScenario = scenarios({ contractIds: [1], participants: [{ contractId: 1, partyId: 1, participantId: 1 }], create: { workspaceId: 1, templateId: 1 } }).find(
    (s) => s.id === "contracts-offset-0",
  )!;
  if (!selected(listScenario.id)) return null;
  const pgUrls = postgresUrls();
  const smallDb: AppDatabase = kind === "postgres" ? { kind, url: pgUrls.small } : { kind, dir: PGLITE_DIRS.small, socketDir: await socketFolder() };
  const appSmall = await started(startApp(`app-${kind}-small`, smallDb));
  try {
    const samples: ScenarioResult[] = [];
    for (let i = 0; i < samplesOn(kind); i++) samples.push(await runScenario(appSmall.baseUrl, "app", appSmall.pid, listScenario, sampleLoad(load, i)));
    const result = combineSamples(samples);
    log(`${kind} app   ${`${listScenario.id} @ ${contracts}`.padEnd(28)} ${result.rps.toFixed(0).padStart(6)} req/s  p99 ${result.latencyMs.p99} ms  non-2xx ${result.non2xx}`);
    return result;
  } finally {
    await stopped(appSmall);
  }
}

async function benchDatabase(kind: "postgres" | "pglite", load: LoadOptions, problems: string[]): Promise<{ run: DatabaseRun; explain: ExplainReport | null }> {
  const pgUrls = postgresUrls();
  const owned = !process.env.DATABASE_URL;
  const largeTarget: DbTarget = kind === "postgres" ? postgresTarget(pgUrls.large, pgUrls.admin, owned) : { kind: "pglite", dir: PGLITE_DIRS.large };
  const smallTarget: DbTarget = kind === "postgres" ? postgresTarget(pgUrls.small, pgUrls.admin, owned) : { kind: "pglite", dir: PGLITE_DIRS.small };

  log(`${kind}: checking the data sets…`);
  const large = await ensureDataset(largeTarget, DATASETS.large);
  const small = await ensureDataset(smallTarget, DATASETS.small);
  log(
    `${kind}: large data set ${large.reused ? "reused" : "loaded"} (${large.marker.rows.contracts} contracts, first load took ${large.marker.loadSeconds.toFixed(1)} s); ` +
      `small ${small.reused ? "reused" : "loaded"} (${small.marker.rows.contracts} contracts)`,
  );

  let explain: ExplainReport | null = null;
  if (kind === "postgres") {
    log("postgres: query plans (EXPLAIN ANALYZE, BUFFERS): the hot statements and the contracts list…");
    try {
      explain = await runExplain(pgUrls.large);
      console.log(summarizeExplain(explain));
    } catch (error) {
      problems.push(`explain failed: ${(error as Error).message}`);
      log(`explain failed: ${(error as Error).message}`);
    }
  }

  const results: ScenarioResult[] = [];
  const comparisons: DatabaseRun["comparisons"] = [];
  const rateLimit: ScenarioResult[] = [];
  let rateLimitedRssPeakMb: number | null = null;
  let hostile: NonNullable<DatabaseRun["memory"]>["hostile"] = null;
  const socketDir = kind === "pglite" ? await socketFolder() : "";
  const appDb: AppDatabase = kind === "postgres" ? { kind, url: pgUrls.large } : { kind, dir: PGLITE_DIRS.large, socketDir };
  const t0 = performance.now();
  const app = await started(startApp(`app-${kind}-large`, appDb));
  const appStartSeconds = (performance.now() - t0) / 1000;
  const appIdleRssMb = rssMb(app.pid);
  // The app's RSS through the whole bench (every scenario, the comparisons, the idle times), not only under load.
  const appRss = sampleRss(app.pid, 250);
  log(`${kind}: app ready in ${appStartSeconds.toFixed(1)} s (pid ${app.pid}, ${app.baseUrl}, RSS ${appIdleRssMb?.toFixed(0)} MB before load)`);
  const dbUrl = kind === "postgres" ? pgUrls.large : embeddedDatabaseUrl(socketDir);
  let appAfterMb: number | null = null;
  let appPeakMb: number | null = null;
  let breakdownAfter: Record<string, number> | null = null;
  let smallResult: ScenarioResult | null = null;
  try {
    const targets = await loadTargets(dbUrl, large.marker.maxContractId);
    const floor = await started(startFloor(`floor-${kind}`, dbUrl, { embedded: kind === "pglite" }));
    // The reference route in a server process of its own (the same build), so that its CPU and
    // memory are never counted as the app's. On the embedded database it reaches the app's
    // database through its socket (an embedded database has one owner) and does no background work.
    const reference = await started(startApp(`reference-${kind}`, { kind: "postgres", url: dbUrl }, referenceEnv(kind), { readyPath: referencePath("/v1/ping") }));
    const servers: Record<"app" | "reference" | "floor", Served> = {
      app: { baseUrl: app.baseUrl, pid: app.pid, rewrite: samePath },
      reference: { baseUrl: reference.baseUrl, pid: reference.pid, rewrite: referencePath },
      floor: { baseUrl: floor.baseUrl, pid: floor.pid, rewrite: samePath },
    };
    try {
      for (const scenario of scenarios(targets)) {
        if (!selected(scenario.id)) continue;
        const kinds: ("app" | "reference" | "floor")[] = FLOOR_SCENARIOS.has(scenario.id) ? ["app", "reference", "floor"] : ["app"];
        if (kinds.length > 1) {
          const compareTargets: CompareTarget[] = kinds.map((k) => ({ name: k, ...servers[k] }));
          const c = await compareAnswers(compareTargets, scenario, dbUrl);
          comparisons.push(c);
          if (c.identical) log(`${kind} ${scenario.id}: app, reference and floor answer identically (${c.requests} requests compared)`);
          else {
            log(`${kind} ${scenario.id}: ANSWERS DIFFER:\n  ${c.mismatches.join("\n  ")}`);
            problems.push(`${kind} ${scenario.id}: the answers of ${c.servers.join(", ")} differ: ${c.mismatches.slice(0, 3).join("; ")}`);
          }
        }
        results.push(...(await measure(kind, scenario, kinds.map((k) => [k, servers[k]]), load)));
      }
    } finally {
      await stopped(floor);
      await stopped(reference);
    }

    // Hostile input's first round (the measured second one is last, below) goes before the
    // rate-limit comparison: the app then idles through that comparison instead of in a pause of its own.
    const hostileLoad: LoadOptions = { durationSec: settings.hostileSec, warmupSec: 0, connections: load.connections };
    let hostileWarm: { input: ReturnType<typeof hostileScenario> } | null = null;
    if (selected("hostile")) {
      const input = hostileScenario(targets);
      const warm = await runScenario(app.baseUrl, "app", app.pid, input, hostileLoad);
      hostileWarm = { input };
      log(`${kind} app hostile, first round: ${warm.requests} requests, RSS peak ${warm.rssPeakMb?.toFixed(0)} MB`);
    }

    // The shipped default: the per-token rate limit on, with a limit that never refuses, against
    // off: on, then off, in every sample. Both are fresh app processes started together for this
    // comparison (the main app has served every scenario before: its heap and compiled code are
    // not a fresh process's), so the limit is the only difference between them. PostgreSQL only
    // (an embedded database belongs to one process).
    const limited = scenarios(targets).filter((s) => RATE_LIMIT_SCENARIOS.includes(s.id) && selected(s.id));
    if (kind === "postgres" && limited.length && selected("rate-limit")) {
      const appOff = await started(startApp(`app-${kind}-rate-limit-off`, appDb, { API_RATE_LIMIT_PER_MINUTE: "0", BACKGROUND_JOBS: "off" }));
      const appLimited = await started(startApp(`app-${kind}-rate-limited`, appDb, { API_RATE_LIMIT_PER_MINUTE: String(NEVER_REFUSING_RATE_LIMIT), BACKGROUND_JOBS: "off" }));
      const limitedRss = sampleRss(appLimited.pid, 250);
      log(`${kind}: rate limit off (pid ${appOff.pid}) and on (pid ${appLimited.pid}, API_RATE_LIMIT_PER_MINUTE=${NEVER_REFUSING_RATE_LIMIT}) ready`);
      try {
        for (const scenario of limited) {
          rateLimit.push(
            ...(await measure(kind, scenario, [
              ["app", { baseUrl: appOff.baseUrl, pid: appOff.pid, rewrite: samePath }],
              ["app-rate-limited", { baseUrl: appLimited.baseUrl, pid: appLimited.pid, rewrite: samePath }],
            ], load)),
          );
        }
      } finally {
        rateLimitedRssPeakMb = limitedRss.stop();
        await stopped(appLimited);
        await stopped(appOff);
      }
    }

    // Hostile input in two equal rounds: the first (above) brings the heap to the size this traffic
    // needs, the second is measured: RSS after the first and an idle pause, against RSS after the
    // second and another (which is also the RSS "after the bench"). Each pause is `idleSec`. Every
    // hostile request is distinct (tokens, e-mails, ids, query strings), so memory kept per request
    // grows in both rounds. The same list on 1,000 contracts (`measureSmallList`, an app process of
    // its own) is measured during this app's last pause.
    if (hostileWarm) {
      await idle(settings.idleSec);
      const beforeMb = rssMb(app.pid);
      const r = await runScenario(app.baseUrl, "app", app.pid, hostileWarm.input, hostileLoad);
      log(`${kind} app hostile: ${r.requests} requests (${r.rps.toFixed(0)}/s), status codes ${JSON.stringify(r.statusCodes)}, RSS before ${beforeMb?.toFixed(0)} MB, peak ${r.rssPeakMb?.toFixed(0)} MB`);
      const pause = idle(settings.idleSec);
      smallResult = await measureSmallList(kind, small.marker.rows.contracts, load);
      await pause;
      const afterMb = rssMb(app.pid);
      hostile = { beforeMb: beforeMb === null ? null : round1(beforeMb), afterMb: afterMb === null ? null : round1(afterMb), result: r };
      log(`${kind} app hostile: RSS ${afterMb?.toFixed(0)} MB after it and ${settings.idleSec} s idle (before: ${beforeMb?.toFixed(0)} MB)`);
    } else {
      const pause = idle(settings.idleSec);
      smallResult = await measureSmallList(kind, small.marker.rows.contracts, load);
      await pause;
    }
    appAfterMb = rssMb(app.pid);
    breakdownAfter = memoryBreakdown(app.pid);
  } finally {
    appPeakMb = appRss.stop();
    await stopped(app);
  }

  return {
    explain,
    run: {
      database: kind,
      dataset: {
        contracts: large.marker.rows.contracts!,
        templateTypes: large.marker.rows.template_types!,
        reused: large.reused,
        loadSeconds: Math.round(large.marker.loadSeconds * 10) / 10,
        ensureSeconds: Math.round(large.seconds * 10) / 10,
      },
      smallDataset: {
        contracts: small.marker.rows.contracts!,
        reused: small.reused,
        loadSeconds: Math.round(small.marker.loadSeconds * 10) / 10,
        ensureSeconds: Math.round(small.seconds * 10) / 10,
      },
      results,
      small: smallResult,
      comparisons,
      rateLimit: rateLimit.length ? { limitPerMinute: NEVER_REFUSING_RATE_LIMIT, results: rateLimit, rssPeakMb: rateLimitedRssPeakMb === null ? null : round1(rateLimitedRssPeakMb) } : null,
      memory: {
        peakMb: appPeakMb === null ? null : round1(appPeakMb),
        afterMb: appAfterMb === null ? null : round1(appAfterMb),
        idleSec: settings.idleSec,
        hostile,
        breakdownAfter,
      },
      appRssPeakMb: appPeakMb === null ? null : round1(appPeakMb),
      appIdleRssMb: appIdleRssMb === null ? null : round1(appIdleRssMb),
      appStartSeconds: Math.round(appStartSeconds * 10) / 10,
    },
  };
}

const round1 = (v: number) => Math.round(v * 10) / 10;

async function readBefore(): Promise<BenchReport | null> {
  if (LABEL === "before" || !existsSync(BEFORE_JSON)) return null;
  try {
    return JSON.parse(await readFile(BEFORE_JSON, "utf8")) as BenchReport;
  } catch {
    return null;
  }
}

async function main() {
  const t0 = performance.now();
  // Before the build: a DATABASE_URL off this machine is refused at once, not minutes later.
  if (settings.databases.includes("postgres")) postgresUrls();
  sendNothingOut();
  await mkdir(RESULTS_DIR, { recursive: true });
  const problems: string[] = [];
  const load: LoadOptions = { durationSec: settings.durationSec, warmupSec: settings.warmupSec, connections: settings.connections };
  if (RESULTS_DIR !== COMMITTED_RESULTS_DIR) log(`quick run (${quickRun.join(", ") || "BENCH_RESULTS_DIR"}): results go to ${RESULTS_DIR}, not bench/results/`);
  if (LABEL) log(`BENCH_LABEL=${LABEL}: results go to ${path.join(RESULTS_DIR, OUTPUT.json)} and ${OUTPUT.md}`);
  log(
    `settings: ${settings.samples} samples on PostgreSQL and ${settings.embeddedSamples} on the embedded database × ${load.durationSec} s (after ${load.warmupSec} s of warm-up before the first, ${laterWarmupSec(load)} s before each later one) per scenario and server, reference, app and floor in that order every sample, ` +
      `${load.connections} connections; databases: ${settings.databases.join(", ")}; load average ${os.loadavg().map((v) => v.toFixed(1)).join(" ")}`,
  );

  const buildSeconds = settings.skipBuild ? null : await build();
  let firstLoad: FirstLoadReport | null = null;
  try {
    firstLoad = measureFirstLoadJs(path.join(ROOT, DIST_DIR));
    problems.push(...firstLoad.problems);
  } catch (error) {
    problems.push(`first-load JS not measured: ${(error as Error).message}`);
  }

  // Now, while this process does nothing else (no server or load generator yet): its CPU time is the PDF's.
  let contractPdf: ContractPdfMeasurement | null = null;
  try {
    contractPdf = await measureContractPdf();
    log(`contract PDF: ${contractPdf.pages} pages, CPU ${contractPdf.cpuMs.join(", ")} ms (wall ${contractPdf.wallMs.join(", ")} ms)`);
  } catch (error) {
    problems.push(`contract PDF not measured: ${(error as Error).message}`);
  }
  let sealedUpload: SealedUploadMeasurement | null = null;
  try {
    sealedUpload = await measureSealedUploadPdf();
    log(`sealed uploaded PDF: ${sealedUpload.pages} pages, ${sealedUpload.boxes} boxes, CPU ${sealedUpload.cpuMs.join(", ")} ms (wall ${sealedUpload.wallMs.join(", ")} ms)`);
  } catch (error) {
    problems.push(`sealed uploaded PDF not measured: ${(error as Error).message}`);
  }

  const runs: DatabaseRun[] = [];
  const skipped: string[] = [];
  let explain: ExplainReport | null = null;
  for (const kind of settings.databases) {
    if (kind === "postgres" && !(await postgresReachable())) {
      const msg = `PostgreSQL at ${new URL(postgresUrls().admin).host} did not answer: its half of the benchmark was skipped (start one, or set DATABASE_URL)`;
      problems.push(msg);
      skipped.push(kind);
      log(msg);
      continue;
    }
    const r = await benchDatabase(kind, load, problems);
    runs.push(r.run);
    explain ??= r.explain;
  }

  const totalSeconds = (performance.now() - t0) / 1000;
  const targets = checkTargets(runs, firstLoad, totalSeconds, { hot: explain?.hot ?? null, contractPdf, sealedUpload });
  for (const kind of skipped) targets.unshift({ target: "the database's scenarios", database: kind, value: "skipped: server unreachable", limit: "measured", met: false });
  const cpus = os.cpus();
  const report: BenchReport = {
    generatedAt: new Date().toISOString(),
    label: LABEL,
    machine: { cpus: cpus.length, cpuModel: cpus[0]?.model ?? "?", memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.platform()} ${os.release()}` },
    settings: { samples: settings.samples, embeddedSamples: settings.embeddedSamples, durationSec: load.durationSec, warmupSec: load.warmupSec, connections: load.connections, logLevel: settings.serverLogLevel },
    buildSeconds: buildSeconds === null ? null : Math.round(buildSeconds * 10) / 10,
    totalSeconds: Math.round(totalSeconds * 10) / 10,
    runs,
    firstLoadJs: firstLoad,
    explain: explain && {
      database: explain.database,
      flagged: explain.flagged,
      cases: explain.cases.map((c) => {
        const ms = (role: string) => c.statements.find((s) => s.role === role)?.executionMs ?? 0;
        return { name: c.name, actor: c.actor, pageMs: ms("page"), countMs: ms("count"), partiesMs: ms("parties"), flags: c.flags };
      }),
      hot: (explain.hot ?? []).map((h) => ({ name: h.name, executionMs: h.executionMs, planningMs: h.planningMs, flags: h.flags })),
    },
    contractPdf,
    sealedUpload,
    targets,
    problems,
  };

  const before = await readBefore();
  const memoryLog = memoryLogTable();
  await writeFile(path.join(RESULTS_DIR, OUTPUT.json), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(path.join(RESULTS_DIR, OUTPUT.svg), `${p99Chart(runs)}\n`);
  const tables = [
    `${LABEL ? `Run "${LABEL}", ` : ""}${report.generatedAt}. Scenarios (medians of ${settings.samples} samples on PostgreSQL, ${settings.embeddedSamples} on the embedded database; reference route, app and floor measured in that order in every sample; each ${load.durationSec} s, after ${load.warmupSec} s of warm-up before a server's first sample of a scenario and ${laterWarmupSec(load)} s before each later one; ${load.connections} connections):`,
    "",
    scenarioTable(runs),
    "",
    "\\* non-2xx and errors include the warm-up and failed first requests. CPU ms/req: CPU time of the server process per request (app, reference route and floor each in a process of its own; on the embedded database the app's process also runs the database, the reference's and the floor's do not). load avg: the shared 2-core machine's 1-minute load when the scenario ended. app/ref and app/floor: the app's throughput as a share of the reference route's and the floor's, the median of the per-sample ratios (each sample of the app against the same sample of the other, run just before or after it), not the ratio of the two medians.",
    "",
    "Identical answers (checked before each scenario is measured):",
    "",
    comparisonList(runs),
    "",
    ...(runs.some((r) => r.rateLimit) ? ["Rate limit on (a limit that never refuses) against off, measured on then off in every sample (req/s: medians; on/off: the median of the per-sample ratios):", "", rateLimitTable(runs), ""] : []),
    "Memory of the app's process (RSS):",
    "",
    memoryTable(runs),
    "",
    ...(memoryLog ? ["What each server's memory was made of (BENCH_MEMORY_LOG; sampled inside the process each second):", "", table(memoryLog.header, memoryLog.rows.map((r) => r.map(String))), ""] : []),
    ...(before ? [`Before (${before.label ?? "before"}, ${before.generatedAt}) and after (this run):`, "", beforeAfterTable(before, report), ""] : []),
    ...(contractPdf
      ? [
          `Contract PDF (bench/contract-pdf.ts, in the bench's process): ${contractPdf.pages} pages, ${(contractPdf.bytes / 1024).toFixed(1)} KB; CPU ${contractPdf.cpuMs.join(", ")} ms, wall ${contractPdf.wallMs.join(", ")} ms (${contractPdf.cpuMs.length} builds after one to warm up).`,
          "",
        ]
      : []),
    ...(sealedUpload
      ? [
          `Sealed copy of an uploaded PDF (bench/sealed-upload-pdf.ts, in the bench's process): ${sealedUpload.pages} pages and ${sealedUpload.boxes} boxes, ${sealedUpload.sealedPages} pages and ${(sealedUpload.bytes / 1024).toFixed(1)} KB sealed; CPU ${sealedUpload.cpuMs.join(", ")} ms, wall ${sealedUpload.wallMs.join(", ")} ms (${sealedUpload.cpuMs.length} builds after one to warm up).`,
          "",
        ]
      : []),
    ...(report.explain?.hot?.length
      ? ["Hot statements on PostgreSQL (bench/explain.ts; plans in explain.txt):", "", hotTable(report.explain.hot), ""]
      : []),
    "Targets:",
    "",
    targetTable(targets),
    ...(firstLoad ? ["", "First-load JavaScript (gzip):", "", firstLoadTable(firstLoad)] : []),
  ].join("\n");
  await writeFile(path.join(RESULTS_DIR, OUTPUT.md), `${tables}\n`);
  console.log(`\n${tables}\n`);
  for (const p of problems) console.log(`problem: ${p}`);
  const missed = targets.filter((t) => !t.met).length;
  const held = targets.filter((t) => !t.reportedOnly).length;
  log(
    `done in ${(totalSeconds / 60).toFixed(1)} min: ${held - missed}/${held} targets met (${targets.length - held} rows reported only). Results in ${RESULTS_DIR.startsWith(ROOT) ? path.relative(ROOT, RESULTS_DIR) : RESULTS_DIR} (${Object.values(OUTPUT).join(", ")})`,
  );
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    console.error(error);
    await stopAll();
    process.exit(1);
  },
);
