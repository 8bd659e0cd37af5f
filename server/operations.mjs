// What operators and their tools ask the server (docs/security.md "Operations"): `/livez` (the
// process answers), `/readyz` (the database answers, the migrations are applied, the background
// jobs are alive; 503 naming what is not), and `/metrics` in Prometheus' text format (prom-client):
// requests by route and status with their latency, the job queues, job runs and failures, the
// database pool, and the process. The front door (server.mjs) answers them before Next; what only
// the app knows (its database, its jobs) it asks through `globalThis.__contractsOperations`
// (lib/services/health/register-operations.ts).
import fs from "node:fs";
import path from "node:path";
import { timingSafeEqual } from "node:crypto";
import client from "prom-client";
import { FORWARDING_HEADERS } from "../lib/http/front-door.ts";

/** Latency buckets (seconds): most API answers take a few milliseconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** How long a scrape waits for the job queues' depths (read-queue-depths.ts holds its statement to the same). */
const QUEUE_READ_TIMEOUT_MS = 2_000;
/** The status label of a request whose client went away before its answer was sent (nginx's number for it). */
export const CLIENT_CLOSED = 499;

const operations = () => globalThis.__contractsOperations;

/**
 * The metrics of this process. `track(req, res)` is the per-request cost: the start time and one
 * `close` listener (a shared function, no closure); at close, one histogram observation labelled by
 * the route's pattern (`res.routeLabel`, set by the API lane or from the build's routes before Next
 * gets the request), never the raw path.
 */
export function createMetrics({ distDir, methods, logger }) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const requests = new client.Histogram({
    name: "http_request_duration_seconds",
    help: "Requests by route pattern, method and status, and how long each took to answer (its _count is the number of requests).",
    labelNames: ["route", "method", "status"],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  new client.Gauge({
    name: "job_queue_depth",
    help: "Rows waiting in each job queue (due or claimed; retries not yet due included), read at scrape time.",
    labelNames: ["queue"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of await queueDepths()) this.set({ queue: q.queue }, q.depth);
    },
  });
  new client.Gauge({
    name: "job_queue_oldest_age_seconds",
    help: "How long the earliest-due row of each queue has been due (0 when none is due).",
    labelNames: ["queue"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of await queueDepths()) if (q.queue !== "count_deltas") this.set({ queue: q.queue }, q.oldestAgeSeconds ?? 0);
    },
  });
  // Both queue gauges come from one read per scrape; a read that has not answered in 2 s (every
  // connection of the pool busy, a slow database) leaves them out of this scrape, never holds it.
  let pending = null;
  function queueDepths() {
    pending ??= Promise.resolve()
      .then(() => {
        let timer;
        const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("no answer within 2 s")), QUEUE_READ_TIMEOUT_MS)));
        return Promise.race([operations()?.queues() ?? null, late]).finally(() => clearTimeout(timer));
      })
      .then(
        (rows) => rows ?? [],
        (error) => {
          logger.warn({ error: String(error) }, "metrics: the job queues could not be read");
          return [];
        },
      )
      .finally(() => setImmediate(() => (pending = null)));
    return pending;
  }
  const jobs = () => operations()?.jobs() ?? new Map();
  new client.Counter({
    name: "job_runs_total",
    help: "Runs of each background job in this process, failed or not.",
    labelNames: ["job"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [job, run] of jobs()) this.inc({ job }, run.runs);
    },
  });
  new client.Counter({
    name: "job_failures_total",
    help: "Runs of each background job in this process that failed (logged as `<job> failed; trying again later`).",
    labelNames: ["job"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [job, run] of jobs()) this.inc({ job }, run.failures);
    },
  });
  new client.Gauge({
    name: "job_last_run_age_seconds",
    help: "Seconds since each background job's last run ended.",
    labelNames: ["job"],
    registers: [registry],
    collect() {
      this.reset();
      const now = Date.now();
      for (const [job, run] of jobs()) if (run.lastEndedAt !== null) this.set({ job }, (now - run.lastEndedAt) / 1000);
    },
  });
  const poolGauge = (name, help, key) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const pool = operations()?.pool();
        if (pool) this.set(pool[key]);
        else this.reset();
      },
    });
  poolGauge("db_pool_connections", "Connections the database pool holds (in use and idle).", "total");
  poolGauge("db_pool_idle_connections", "Connections of the database pool not in use.", "idle");
  poolGauge("db_pool_waiting_clients", "Queries waiting for a connection of the database pool.", "waiting");
  poolGauge("db_pool_max_connections", "The most connections the database pool opens.", "max");

  const routes = routeLabels(distDir);
  const knownMethods = new Set(methods);

  /** Called at a response's close, with `this` the response. */
  function observe() {
    const method = knownMethods.has(this.req.method) ? this.req.method : "other";
    const status = this.writableFinished ? this.statusCode : CLIENT_CLOSED;
    requests.observe({ route: this.routeLabel ?? "(other)", method, status }, (performance.now() - this.startedAt) / 1000);
  }
  return {
    registry,
    track(res) {
      res.startedAt = performance.now();
      res.on("close", observe);
    },
    /** The label of a request Next serves (its page's or route's pattern), from the build's routes. */
    routeOf: routes,
    /** A request answered outside `track` (the 431 of a request Node's parser refused). */
    observeRefused(status, seconds) {
      requests.observe({ route: "(front door)", method: "other", status }, seconds);
    },
  };
}

/**
 * The route pattern of a path, as `next build` routed it (routes-manifest.json: static routes, then
 * dynamic ones in Next's order), written as the endpoint declarations write them
 * (`/v1/contracts/{contract_id}`); `/_next/*` for Next's own files; `(other)` for the rest (public
 * files, paths no route has). Bounded: one label per route of the build.
 */
export function routeLabels(distDir) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(distDir, "routes-manifest.json"), "utf8"));
  } catch {
    return () => "(other)"; // development: no build to read
  }
  const label = (page) => page.replace(/\[\[?(\.\.\.)?([^\]]+)\]\]?/g, (_, dots, name) => `{${name}${dots ? "*" : ""}}`);
  const statics = new Map((manifest.staticRoutes ?? []).map((route) => [route.page, label(route.page)]));
  const dynamics = (manifest.dynamicRoutes ?? []).map((route) => ({ re: new RegExp(route.regex), label: label(route.page) }));
  return (url) => {
    const q = url.indexOf("?");
    const pathname = q === -1 ? url : url.slice(0, q);
    const found = statics.get(pathname);
    if (found) return found;
    if (pathname.startsWith("/_next/")) return "/_next/*";
    for (const route of dynamics) if (route.re.test(pathname)) return route.label;
    return "(other)";
  };
}

/** A `Host` naming this machine's loopback (`localhost`, `127.x.x.x`, `[::1]`, any port). */
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;

/**
 * Whether this request may read /metrics. With METRICS_TOKEN: `Authorization: Bearer <token>`,
 * from any address. Without: only a caller on this machine (a loopback socket) whose request no
 * proxy forwarded (no forwarding header the front door knows, no other X-Forwarded-*, no Via), so a
 * reverse proxy on the same machine does not make it public, and that named this machine in `Host`:
 * a web page whose name was rebound to 127.0.0.1 (DNS rebinding) sends its own name. Read before
 * the front door rewrites the forwarding headers.
 */
export function metricsAllowed(req, token) {
  if (token) {
    const given = Buffer.from(String(req.headers.authorization ?? ""));
    const wanted = Buffer.from(`Bearer ${token}`);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }
  const address = req.socket.remoteAddress ?? "";
  const loopback = address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
  if (!loopback || !LOOPBACK_HOST.test(String(req.headers.host ?? ""))) return false;
  for (const name in req.headers) {
    if (FORWARDING_HEADERS.includes(name) || name.startsWith("x-forwarded-") || name === "via") return false;
  }
  return true;
}

/** `/livez`, `/readyz` or `/metrics` when `pathname` is one (GET or HEAD), else null. */
export function operationOf(method, url) {
  if (method !== "GET" && method !== "HEAD") return null;
  const q = url.indexOf("?");
  const pathname = q === -1 ? url : url.slice(0, q);
  return pathname === "/livez" || pathname === "/readyz" || pathname === "/metrics" ? pathname : null;
}

/** Answers /livez or /readyz. `shuttingDown`: readiness is 503 from SIGTERM on. */
export async function answerProbe(operation, req, res, { shuttingDown, headers }) {
  let status = 200;
  let body;
  if (operation === "/livez") {
    body = { status: "alive" };
  } else if (shuttingDown) {
    status = 503;
    body = { status: "not_ready", checks: { server: "shutting down" } };
  } else {
    const ops = operations();
    const readiness = ops ? await ops.readiness() : { ready: false, checks: { app: "not started" } };
    status = readiness.ready ? 200 : 503;
    body = { status: readiness.ready ? "ready" : "not_ready", checks: readiness.checks };
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, "Content-Type": "application/json", "Cache-Control": "no-store", "Content-Length": Buffer.byteLength(text) });
  res.end(req.method === "HEAD" ? undefined : text);
}

/** Answers /metrics (the caller was allowed: `metricsAllowed`). */
export async function answerMetrics(metrics, req, res, { headers }) {
  const text = await metrics.registry.metrics();
  res.writeHead(200, { ...headers, "Content-Type": metrics.registry.contentType, "Cache-Control": "no-store", "Content-Length": Buffer.byteLength(text) });
  res.end(req.method === "HEAD" ? undefined : text);
}
