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
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";

const CI = process.env.CI === "true" || process.env.CI === "1";
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const serverUrl = new URL(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");

function run(title, cmd, args, extraEnv = {}) {
  console.log(`\n▶ ${title}\n  $ ${[cmd, ...args].join(" ")}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...env, ...extraEnv } });
  if (r.status !== 0) {
    console.error(`\n✗ ${title} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
  console.log(`✓ ${title} (${Math.round((Date.now() - started) / 1000)} s)`);
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
run("unit and service tests on the embedded database (PGlite)", "node_modules/.bin/vitest", ["run"], { TEST_DB: "pglite" });
if (haveServer) {
  run("unit and service tests on PostgreSQL", "node_modules/.bin/vitest", ["run"], { TEST_DB: "postgres", TEST_DATABASE_URL: serverUrl.toString() });
}
run("production build", "node_modules/.bin/next", ["build"]);
run("HTTP tests against next start on the embedded database", "node_modules/.bin/vitest", ["run", "-c", "vitest.http.config.ts"], { TEST_DB: "pglite" });
if (haveServer) {
  run("HTTP tests against next start on PostgreSQL", "node_modules/.bin/vitest", ["run", "-c", "vitest.http.config.ts"], { TEST_DB: "postgres", TEST_DATABASE_URL: serverUrl.toString() });
}
if (haveServer && existsSync("/usr/lib/postgresql")) {
  run("fault test: its own PostgreSQL cluster crashed and restarted under load", "node_modules/.bin/vitest", ["run", "-c", "vitest.fault.config.ts"]);
} else if (CI) {
  console.error("CI requires PostgreSQL's server binaries (/usr/lib/postgresql) for the fault test.");
  process.exit(1);
}
run("browser tests (Playwright, Chromium)", "node_modules/.bin/playwright", ["test"], { CHROMIUM_PATH: chromium });

console.log(
  haveServer
    ? "\nAll suites passed on both databases."
    : `\nAll suites passed on the embedded database. SKIPPED: the real-PostgreSQL half (no server at ${serverUrl.host}; set TEST_DATABASE_URL or start one).`,
);
