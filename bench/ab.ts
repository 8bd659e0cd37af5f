// `npm run bench:ab`: the app's route against the reference route in ONE server process, on
// PostgreSQL, alternating a few seconds at a time. On a noisy shared machine, ratios from separate
// processes (what `npm run bench` reports) move by ±0.1 between runs of the same code; alternating
// inside one process cancels most of that, so this is the tool for telling whether a change helped.
//
// Reports, per scenario and route: req/s, CPU ms per request of the server process, and CPU ms per
// request of all PostgreSQL processes together (where the database's share of the cost shows).
//
// Needs what `npm run bench` leaves: the `.next-bench` build and the large data set on PostgreSQL
// (run `BENCH_DATABASES=postgres BENCH_SAMPLES=1 BENCH_SCENARIOS=ping npm run bench` once).
// Knobs: AB_SCENARIOS=ping,participant-put (default: every scenario the reference answers),
// AB_ROUNDS=6, AB_SECONDS=3, AB_CONNECTIONS=16, BENCH_CPU_PROF=<folder> (a V8 profile of the server),
// AB_SEPARATE=1 (the reference in a process of its own), AB_BACKGROUND_JOBS=on.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DIST_DIR, ROOT, log, postgresUrls, sendNothingOut } from "./config";
import { runScenario, type LoadOptions } from "./load";
import { cpuMs, startApp } from "./processes";
import { median } from "./stats";
import { FLOOR_SCENARIOS, loadTargets, scenarios } from "./scenarios";

const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
};

/** CPU ms used so far by every process whose command is `postgres` (the server and its backends). */
function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/comm`, "utf8").startsWith("postgres")) continue;
      total += cpuMs(Number(entry)) ?? 0;
    } catch {
      // the process ended between the listing and the read
    }
  }
  return total;
}

async function main() {
  if (!existsSync(path.join(ROOT, DIST_DIR, "BUILD_ID"))) throw new Error(`no ${DIST_DIR} build: run npm run bench once first`);
  const rounds = Math.round(num("AB_ROUNDS", 6));
  const load: LoadOptions = { durationSec: num("AB_SECONDS", 3), warmupSec: 0, connections: Math.round(num("AB_CONNECTIONS", 16)) };
  const url = postgresUrls().large;
  sendNothingOut();
  // AB_ONLY=app (or reference): load one route only, e.g. for a CPU profile of it alone.
  const only = process.env.AB_ONLY;
  if (only && only !== "app" && only !== "reference") throw new Error("AB_ONLY must be app or reference");
  const wanted = process.env.AB_SCENARIOS?.split(",").map((s) => s.trim()).filter(Boolean);

  if (process.env.AB_SEPARATE === "1" && process.env.AB_VERSUS_FLAGS) throw new Error("AB_SEPARATE and AB_VERSUS_FLAGS each choose the second server: set one");
  const jobsSetting = process.env.AB_BACKGROUND_JOBS;
  if (jobsSetting !== undefined && jobsSetting !== "on" && jobsSetting !== "off") throw new Error("AB_BACKGROUND_JOBS must be on or off");
  // AB_BACKGROUND_JOBS=on: the app runs its background jobs, as shipped (default off: only requests).
  const jobs = jobsSetting ?? "off";
  const app = await startApp("ab-app", { kind: "postgres", url }, { BACKGROUND_JOBS: jobs });
  // AB_SEPARATE=1: the reference route served by a process of its own (as in `npm run bench`), still
  // alternating with the app's: whether serving them apart changes the ratio.
  const separate = process.env.AB_SEPARATE === "1"
    ? await startApp("ab-reference", { kind: "postgres", url }, { BACKGROUND_JOBS: "off" }, { readyPath: "/v1/bench-reference/ping" }).catch(async (e) => {
        await app.stop();
        throw e;
      })
    : null;
  // AB_VERSUS_FLAGS="--a --b": instead of the reference route, the app's own route on a second app
  // process started with these node options (what a runtime setting is worth, alternating).
  const versusFlags = process.env.AB_VERSUS_FLAGS;
  const versus = versusFlags
    ? await startApp("ab-app-versus", { kind: "postgres", url }, { BACKGROUND_JOBS: "off" }, { nodeFlags: versusFlags.split(" ").filter(Boolean) }).catch(async (e) => {
        await app.stop();
        throw e;
      })
    : null;
  const second = versus ? "app with " + versusFlags : "reference";
  try {
    const targets = await loadTargets(url, 2_147_483_647);
    const list = scenarios(targets).filter((s) => FLOOR_SCENARIOS.has(s.id) && (!wanted || wanted.includes(s.id)));
    const rows: string[] = [];
    for (const scenario of list) {
      const routes = [
        { name: "app", server: app, rewrite: (p: string) => p },
        // The reference route answers `/v1/x` at `/v1/bench-reference/x` (as in run.ts).
        versus ? { name: "reference", server: versus, rewrite: (p: string) => p } : { name: "reference", server: separate ?? app, rewrite: (p: string) => p.replace(/^\/v1\//, "/v1/bench-reference/") },
      ].filter((r) => !only || r.name === only);
      // Warm both routes (compiled code, prepared statements, PostgreSQL's caches).
      for (const r of routes) await runScenario(r.server.baseUrl, "app", r.server.pid, scenario, { ...load, durationSec: 2 }, r.rewrite);
      const per = new Map(routes.map((r) => [r.name, [] as { rps: number; cpu: number; pg: number; rss: number }[]]));
      for (let i = 0; i < rounds; i++) {
        const order = i % 2 ? [...routes].reverse() : routes;
        for (const r of order) {
          const pgBefore = postgresCpuMs();
          const res = await runScenario(r.server.baseUrl, "app", r.server.pid, scenario, load, r.rewrite);
          const pgMs = (postgresCpuMs() - pgBefore) / Math.max(1, res.requests);
          if (res.status !== "ok" || res.non2xx) throw new Error(`${scenario.id} ${r.name}: ${res.note ?? `${res.non2xx} non-2xx answers`}`);
          per.get(r.name)!.push({ rps: res.rps, cpu: res.serverCpuMsPerRequest ?? NaN, pg: pgMs, rss: res.rssPeakMb ?? NaN });
        }
        const a = per.get("app")?.at(-1);
        const b = per.get("reference")?.at(-1);
        if (!a || !b) continue;
        log(`${scenario.id} round ${i + 1}/${rounds}: app ${a.rps.toFixed(0)} req/s (${a.cpu.toFixed(2)} + pg ${a.pg.toFixed(2)} ms) · ${second} ${b.rps.toFixed(0)} req/s (${b.cpu.toFixed(2)} + pg ${b.pg.toFixed(2)} ms) · ${(a.rps / b.rps).toFixed(2)}×`);
      }
      const summary = (name: string) => {
        const s = per.get(name)!;
        return { rps: median(s.map((x) => x.rps)), cpu: median(s.map((x) => x.cpu)), pg: median(s.map((x) => x.pg)), rss: Math.max(...s.map((x) => x.rss)) };
      };
      if (only) {
        const s = summary(only);
        rows.push(`| ${scenario.id} (${only} only) | ${s.rps.toFixed(0)} | | | ${s.cpu.toFixed(2)} | | ${s.pg.toFixed(2)} | | ${s.rss.toFixed(0)} | |`);
        continue;
      }
      const a = summary("app");
      const b = summary("reference");
      const ratios = per.get("app")!.map((x, i) => x.rps / per.get("reference")![i]!.rps);
      rows.push(
        `| ${scenario.id} | ${a.rps.toFixed(0)} | ${b.rps.toFixed(0)} | ${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) | ${a.cpu.toFixed(2)} | ${b.cpu.toFixed(2)} | ${a.pg.toFixed(2)} | ${b.pg.toFixed(2)} | ${a.rss.toFixed(0)} | ${b.rss.toFixed(0)} |`,
      );
    }
    console.log(
      [
        `\n${rounds} alternating rounds of ${load.durationSec} s, ${load.connections} connections, ${versus || separate ? "two server processes" : "one server process"}, the app's background jobs ${jobs} (medians):\n`,
        `| scenario | app req/s | ${second} req/s | ratio (range of rounds) | app CPU ms/req | ${second} CPU ms/req | app PostgreSQL ms/req | ${second} PostgreSQL ms/req | app RSS peak MB | ${second} RSS peak MB |`,
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
        ...rows,
      ].join("\n"),
    );
  } finally {
    await versus?.stop();
    await separate?.stop();
    await app.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
