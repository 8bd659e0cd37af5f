#!/usr/bin/env node
// `npm test`: every suite, on both databases.
//   1. type check
//   2. unit, service and schema tests on in-memory embedded databases (PGlite)
//   3. the same on a real PostgreSQL server (a fresh database per test file)
//   4. the production build, then HTTP tests against `next start` on each database
//   5. the fault test (a PostgreSQL cluster of its own, crashed mid-stream), when the server binaries exist
//   6. browser tests (Playwright in Chromium) against the production build
// Without a reachable PostgreSQL server the real-server half is skipped and said so, except in CI
// (CI=true), where it is required. Chromium is the system's (/usr/bin/chromium or CHROMIUM_PATH);
// when missing, it is installed from Debian's packages if this user can, else the run stops.
//
// Nothing is skipped silently: every step not run is listed by name with the reason, and so is every
// test a suite skipped (read from each runner's JSON report). A test skipped on one database but run
// on the other (e.g. "(PostgreSQL only) …") is listed as such; one that ran nowhere is a skip of the
// run. "All suites passed on both databases" is printed only when nothing at all was skipped.
import "../server/node-version.mjs"; // first: stops here, saying why, on a Node older than 24
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

console.log(`Node.js ${process.version} (${process.execPath})`);

const CI = process.env.CI === "true" || process.env.CI === "1";
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const serverUrl = new URL(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");

const reports = mkdtempSync(path.join(os.tmpdir(), "contracts-test-reports-"));
/** Steps not run: { step, reason }. */
const skippedSteps = [];
/** Every test seen, by file and full name: the steps that ran it and the steps that skipped it. */
const tests = new Map();

function skipStep(step, reason) {
  skippedSteps.push({ step, reason });
  console.log(`\n⚠ SKIPPED: ${step} — ${reason}`);
}

function run(title, cmd, args, extraEnv = {}, onFailure = () => {}) {
  console.log(`\n▶ ${title}\n  $ ${[cmd, ...args].join(" ")}`);
  const started = Date.now();
  // The project's tools run on this same Node, not on whichever `node` their #! line finds on PATH.
  const [file, argv] = cmd.startsWith("node_modules/.bin/") ? [process.execPath, [realpathSync(cmd), ...args]] : [cmd, args];
  const r = spawnSync(file, argv, { stdio: "inherit", env: { ...env, ...extraEnv } });
  if (r.status !== 0) {
    console.error(`\n✗ ${title} failed (exit ${r.status ?? r.signal})`);
    onFailure();
    printSkips();
    process.exit(r.status || 1);
  }
  console.log(`✓ ${title} (${Math.round((Date.now() - started) / 1000)} s)`);
}

function seen(step, id, ran) {
  const entry = tests.get(id) ?? { ranIn: [], skippedIn: [] };
  (ran ? entry.ranIn : entry.skippedIn).push(step);
  tests.set(id, entry);
}

/** A vitest run, with its JSON report read back for the tests it skipped. */
function runVitest(title, args, extraEnv) {
  const report = path.join(reports, `vitest-${tests.size}-${Date.now()}.json`);
  run(title, "node_modules/.bin/vitest", [...args, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], extraEnv);
  const json = JSON.parse(readFileSync(report, "utf8"));
  for (const file of json.testResults) {
    for (const t of file.assertionResults) {
      seen(title, `${path.relative(process.cwd(), file.name)} > ${t.fullName}`, t.status === "passed" || t.status === "failed");
    }
  }
}

/** The Playwright run, with its JSON report read back the same way. */
function runPlaywright(title, extraEnv) {
  const report = path.join(reports, "playwright.json");
  run(title, "node_modules/.bin/playwright", ["test", "--reporter=list,json"], { ...extraEnv, PLAYWRIGHT_JSON_OUTPUT_NAME: report }, printPageSnapshots);
  const json = JSON.parse(readFileSync(report, "utf8"));
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) seen(title, `${spec.file} > ${[...titles, spec.title].join(" > ")}`, t.status !== "skipped");
    }
    for (const child of suite.suites ?? []) walk(child, child.title && !child.title.endsWith(".ts") ? [...titles, child.title] : titles);
  };
  for (const suite of json.suites ?? []) walk(suite, []);
}

/**
 * What each failed browser test's page showed when it failed (Playwright's `error-context.md`: the
 * page's accessibility tree), printed, since CI keeps the output and not the files.
 */
function printPageSnapshots() {
  const dir = "test-results";
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { recursive: true })) {
    if (path.basename(String(entry)) !== "error-context.md") continue;
    const lines = readFileSync(path.join(dir, String(entry)), "utf8").split("\n");
    console.error(`\n── ${path.join(dir, String(entry))} (${lines.length} lines) ──`);
    console.error(lines.slice(0, 400).join("\n"));
  }
}

/** Skipped tests: those that ran nowhere in this run, and those that ran on one database only. */
function skippedTests() {
  const nowhere = [];
  const partly = [];
  for (const [id, { ranIn, skippedIn }] of tests) {
    if (skippedIn.length === 0) continue;
    (ranIn.length === 0 ? nowhere : partly).push({ id, ranIn, skippedIn });
  }
  return { nowhere, partly };
}

function printSkips() {
  const { nowhere, partly } = skippedTests();
  if (partly.length > 0) {
    console.log(`\nRan on one database only (skipped in one step, run in another): ${partly.length}`);
    for (const t of partly) console.log(`  - ${t.id}\n      ran in: ${t.ranIn.join("; ")}\n      skipped in: ${t.skippedIn.join("; ")}`);
  }
  if (skippedSteps.length > 0) {
    console.log(`\nSKIPPED steps: ${skippedSteps.length}`);
    for (const s of skippedSteps) console.log(`  - ${s.step}: ${s.reason}`);
  }
  if (nowhere.length > 0) {
    console.log(`\nSKIPPED tests (run nowhere in this run): ${nowhere.length}`);
    for (const t of nowhere) console.log(`  - ${t.id} (skipped in: ${t.skippedIn.join("; ")})`);
  }
  return skippedSteps.length + nowhere.length;
}

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port), timeout: 2_000 });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);
  const found = candidates.find((p) => existsSync(p));
  if (found) return found;
  if (process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")) {
    console.log("Chromium not found: installing Debian's chromium package…");
    spawnSync("apt-get", ["update"], { stdio: "inherit" });
    spawnSync("apt-get", ["install", "-y", "-o", "DPkg::Lock::Timeout=600", "chromium"], { stdio: "inherit" });
    if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  }
  console.error("No Chromium found. Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.");
  process.exit(1);
}

const haveServer = await reachable(serverUrl.hostname, serverUrl.port || 5432);
if (!haveServer && CI) {
  console.error(`CI requires a PostgreSQL server at ${serverUrl.host}; none answered.`);
  process.exit(1);
}
const chromium = findChromium();

run("type check", "node_modules/.bin/tsc", ["--noEmit", "-p", "."]);
runVitest("unit and service tests on the embedded database (PGlite)", ["run"], { TEST_DB: "pglite" });
const noServer = `no PostgreSQL server answered at ${serverUrl.host} (set TEST_DATABASE_URL or start one)`;
if (haveServer) {
  runVitest("unit and service tests on PostgreSQL", ["run"], { TEST_DB: "postgres", TEST_DATABASE_URL: serverUrl.toString() });
} else {
  skipStep("unit and service tests on PostgreSQL", noServer);
}
run("production build", "node_modules/.bin/next", ["build"]);
runVitest("HTTP tests on the embedded database", ["run", "-c", "vitest.http.config.ts"], { TEST_DB: "pglite" });
if (haveServer) {
  runVitest("HTTP tests on PostgreSQL", ["run", "-c", "vitest.http.config.ts"], { TEST_DB: "postgres", TEST_DATABASE_URL: serverUrl.toString() });
} else {
  skipStep("HTTP tests on PostgreSQL", noServer);
}
const faultStep = "fault test: its own PostgreSQL cluster crashed and restarted under load";
const haveBinaries = existsSync("/usr/lib/postgresql");
if (haveServer && haveBinaries) {
  runVitest(faultStep, ["run", "-c", "vitest.fault.config.ts"], {});
} else if (CI) {
  console.error("CI requires PostgreSQL's server binaries (/usr/lib/postgresql) for the fault test.");
  process.exit(1);
} else {
  skipStep(faultStep, haveBinaries ? noServer : "PostgreSQL's server binaries (initdb, pg_ctl) are not installed under /usr/lib/postgresql");
}
runPlaywright("browser tests (Playwright, Chromium)", { CHROMIUM_PATH: chromium });

const skips = printSkips();
rmSync(reports, { recursive: true, force: true });
console.log(
  skips === 0
    ? "\nAll suites passed on both databases; nothing was skipped."
    : `\nEvery suite that ran passed, but NOT everything ran: ${skips} skipped (listed above). This is not a full pass.`,
);
