// `npm run bench`: build, make sure the data sets exist, start the app (and the floor) on each
// database, drive the scenarios, check the issue's targets, write bench/results/*.
//
// Quick runs: BENCH_DURATION=2 BENCH_WARMUP=1 BENCH_DATABASES=postgres BENCH_SCENARIOS=contract-detail
// BENCH_SKIP_BUILD=1 (reuse .next-bench). DATABASE_URL picks the PostgreSQL database (default
// postgresql://postgres@127.0.0.1:5432/contracts_bench; the small set goes to `<name>_small`).
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { COMMITTED_RESULTS_DIR, DIST_DIR, PGLITE_DIRS, RESULTS_DIR, ROOT, log, postgresUrls, quickRun, settings } from "./config";
import { DATASETS, ensureDataset, postgresTarget, type DbTarget } from "./dataset";
import { embeddedDatabaseUrl } from "@/lib/db/embedded";
import { runExplain, summarizeExplain, type ExplainReport } from "./explain";
import { measureFirstLoadJs, type FirstLoadReport } from "./first-load-js";
import { combineSamples, runScenario, type LoadOptions, type ScenarioResult } from "./load";

/** One measurement (or a median of several) as a log line. */
function describe(r: ScenarioResult): string {
  if (r.status !== "ok") return `${r.status}: ${r.note}`;
  const spread = r.rpsSpread ? ` (range ${r.rpsSpread.min.toFixed(0)}–${r.rpsSpread.max.toFixed(0)}, spread ${(r.rpsSpread.relative * 100).toFixed(0)} %)` : "";
  return (
    `${r.rps.toFixed(0).padStart(6)} req/s${spread}  p50 ${r.latencyMs.p50} p95 ${r.latencyMs.p95} p99 ${r.latencyMs.p99} ms  non-2xx ${r.non2xx} errors ${r.errors} ` +
    `(warm-up ${r.warmupNon2xx + r.warmupErrors}, probes ${r.probeFailures})  RSS ${r.rssPeakMb?.toFixed(0)} MB  CPU ${r.serverCpuMsPerRequest} ms/req  load ${r.loadAverage}`
  );
}
import { rssMb, startApp, startFloor, type AppDatabase, type ServerProcess } from "./processes";
import { checkTargets, firstLoadTable, p99Chart, scenarioTable, targetTable, type BenchReport, type DatabaseRun } from "./report";
import { FLOOR_SCENARIOS, loadTargets, scenarios } from "./scenarios";

const running = new Set<ServerProcess>();
async function stopAll() {
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

async function started<T extends ServerProcess>(p: Promise<T>): Promise<T> {
  const s = await p;
  running.add(s);
  return s;
}
async function stopped(s: ServerProcess) {
  await s.stop();
  running.delete(s);
}

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
      const child = spawn(process.execPath, [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "build"], {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: "production", NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1", BENCH_PAGES: "1" },
        stdio: ["ignore", "inherit", "inherit"],
      });
      child.on("error", reject);
      child.on("exit", (c) => resolve(c));
    });
    if (code !== 0) throw new Error(`next build failed (exit ${code})`);
  } finally {
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
    log("postgres: query plans of the contracts list (EXPLAIN ANALYZE, BUFFERS)…");
    try {
      explain = await runExplain(pgUrls.large);
      console.log(summarizeExplain(explain));
    } catch (error) {
      problems.push(`explain failed: ${(error as Error).message}`);
      log(`explain failed: ${(error as Error).message}`);
    }
  }

  const results: ScenarioResult[] = [];
  const socketDir = kind === "pglite" ? await socketFolder() : "";
  const appDb: AppDatabase = kind === "postgres" ? { kind, url: pgUrls.large } : { kind, dir: PGLITE_DIRS.large, socketDir };
  const t0 = performance.now();
  const app = await started(startApp(`app-${kind}-large`, appDb));
  const appStartSeconds = (performance.now() - t0) / 1000;
  const appIdleRssMb = rssMb(app.pid);
  log(`${kind}: app ready in ${appStartSeconds.toFixed(1)} s (pid ${app.pid}, ${app.baseUrl}, RSS ${appIdleRssMb?.toFixed(0)} MB before load)`);
  const dbUrl = kind === "postgres" ? pgUrls.large : embeddedDatabaseUrl(socketDir);
  try {
    const targets = await loadTargets(dbUrl, large.marker.maxContractId);
    const floor = await started(startFloor(`floor-${kind}`, dbUrl));
    try {
      for (const scenario of scenarios(targets)) {
        if (settings.scenarios && !settings.scenarios.includes(scenario.id)) continue;
        const servers = [["app", app] as const, ["floor", floor] as const].filter(([server]) => server === "app" || FLOOR_SCENARIOS.has(scenario.id));
        const samples: Record<"app" | "floor", ScenarioResult[]> = { app: [], floor: [] };
        // App and floor alternate, and which goes first alternates too, so neither always meets the
        // machine (caches, PostgreSQL's state, the load left by the other) in the same condition.
        for (let i = 0; i < settings.samples; i++) {
          for (const [server, target] of i % 2 === 0 ? servers : [...servers].reverse()) {
            const r = await runScenario(target.baseUrl, server, target.pid, scenario, load);
            samples[server].push(r);
            log(`${kind} ${server.padEnd(5)} ${scenario.id.padEnd(28)} sample ${i + 1}/${settings.samples} ` + describe(r));
          }
        }
        for (const [server] of servers) {
          const r = combineSamples(samples[server]);
          results.push(r);
          log(`${kind} ${server.padEnd(5)} ${scenario.id.padEnd(28)} median of ${samples[server].length}: ` + describe(r));
        }
      }
    } finally {
      await stopped(floor);
    }
  } finally {
    await stopped(app);
  }

  // The same list on 1,000 contracts: how much of its cost grows with the table.
  let smallResult: ScenarioResult | null = null;
  const listScenario = scenarios({ contractIds: [1], participants: [{ contractId: 1, partyId: 1, participantId: 1 }], create: { workspaceId: 1, templateId: 1 } }).find(
    (s) => s.id === "contracts-offset-0",
  )!;
  if (!settings.scenarios || settings.scenarios.includes(listScenario.id)) {
    const smallDb: AppDatabase = kind === "postgres" ? { kind, url: pgUrls.small } : { kind, dir: PGLITE_DIRS.small, socketDir: await socketFolder() };
    const appSmall = await started(startApp(`app-${kind}-small`, smallDb));
    try {
      const samples: ScenarioResult[] = [];
      for (let i = 0; i < settings.samples; i++) samples.push(await runScenario(appSmall.baseUrl, "app", appSmall.pid, listScenario, load));
      smallResult = combineSamples(samples);
      log(
        `${kind} app   ${`${listScenario.id} @ ${small.marker.rows.contracts}`.padEnd(28)} ${smallResult.rps.toFixed(0).padStart(6)} req/s  p99 ${smallResult.latencyMs.p99} ms  non-2xx ${smallResult.non2xx}`,
      );
    } finally {
      await stopped(appSmall);
    }
  }

  const appPeaks = results.filter((r) => r.server === "app" && r.rssPeakMb !== null).map((r) => r.rssPeakMb!);
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
      appRssPeakMb: appPeaks.length ? Math.max(...appPeaks) : null,
      appIdleRssMb: appIdleRssMb === null ? null : Math.round(appIdleRssMb * 10) / 10,
      appStartSeconds: Math.round(appStartSeconds * 10) / 10,
    },
  };
}

async function main() {
  const t0 = performance.now();
  await mkdir(RESULTS_DIR, { recursive: true });
  const problems: string[] = [];
  const load: LoadOptions = { durationSec: settings.durationSec, warmupSec: settings.warmupSec, connections: settings.connections };
  if (RESULTS_DIR !== COMMITTED_RESULTS_DIR) log(`quick run (${quickRun.join(", ") || "BENCH_RESULTS_DIR"}): results go to ${RESULTS_DIR}, not bench/results/`);
  log(
    `settings: ${settings.samples} samples × (${load.warmupSec} s warm-up + ${load.durationSec} s) per scenario and server, app and floor alternating, ` +
      `${load.connections} connections; databases: ${settings.databases.join(", ")}`,
  );

  const buildSeconds = settings.skipBuild ? null : await build();
  let firstLoad: FirstLoadReport | null = null;
  try {
    firstLoad = measureFirstLoadJs(path.join(ROOT, DIST_DIR));
    problems.push(...firstLoad.problems);
  } catch (error) {
    problems.push(`first-load JS not measured: ${(error as Error).message}`);
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
  const targets = checkTargets(runs, firstLoad, totalSeconds);
  for (const kind of skipped) targets.unshift({ target: "the database's scenarios", database: kind, value: "skipped: server unreachable", limit: "measured", met: false });
  const cpus = os.cpus();
  const report: BenchReport = {
    generatedAt: new Date().toISOString(),
    machine: { cpus: cpus.length, cpuModel: cpus[0]?.model ?? "?", memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.platform()} ${os.release()}` },
    settings: { samples: settings.samples, durationSec: load.durationSec, warmupSec: load.warmupSec, connections: load.connections, logLevel: settings.serverLogLevel },
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
    },
    targets,
    problems,
  };

  await writeFile(path.join(RESULTS_DIR, "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(path.join(RESULTS_DIR, "p99.svg"), `${p99Chart(runs)}\n`);
  const tables = [
    `Scenarios (medians of ${settings.samples} samples, app and floor alternating; each ${load.warmupSec} s warm-up + ${load.durationSec} s, ${load.connections} connections):`,
    "",
    scenarioTable(runs),
    "",
    "\\* non-2xx and errors include the warm-up and failed first requests. CPU ms/req: CPU time of the server process per request (the app's own cost; on the embedded database the app's process also runs the database, the floor's does not). load avg: the shared 2-core machine's 1-minute load when the scenario ended.",
    "",
    "Targets:",
    "",
    targetTable(targets),
    ...(firstLoad ? ["", "First-load JavaScript (gzip):", "", firstLoadTable(firstLoad)] : []),
  ].join("\n");
  await writeFile(path.join(RESULTS_DIR, "latest.md"), `${tables}\n`);
  console.log(`\n${tables}\n`);
  for (const p of problems) console.log(`problem: ${p}`);
  const missed = targets.filter((t) => !t.met).length;
  log(`done in ${(totalSeconds / 60).toFixed(1)} min: ${targets.length - missed}/${targets.length} targets met. Results in ${RESULTS_DIR.startsWith(ROOT) ? path.relative(ROOT, RESULTS_DIR) : RESULTS_DIR} (latest.json, latest.md, p99.svg, explain.txt)`);
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    console.error(error);
    await stopAll();
    process.exit(1);
  },
);
