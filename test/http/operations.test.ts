import { request } from "node:http";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { startServerOnFreshDatabase } from "@/test/helpers/fresh-server";
import { TEST_API_TOKEN, type RunningServer } from "@/test/helpers/server";
import { READINESS_REUSE_MS } from "@/lib/services/health/register-operations";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// /livez, /readyz and /metrics (server/operations.mjs; docs/security.md "Operations"), on a server
// of this file's own with METRICS_TOKEN set, and on the suites' shared server (no token: loopback only).

const METRICS_TOKEN = "metrics-token-0123456789";
const admin = { "x-service-api-token": TEST_API_TOKEN, "x-service-user-email": "admin@example.com" };
let server: RunningServer;

beforeAll(async () => {
  server = await startServerOnFreshDatabase({ METRICS_TOKEN });
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

interface TSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus' text format (version 0.0.4): `name{label="value",…} number` lines, `#` lines skipped. */
function parseMetrics(text: string): TSample[] {
  const samples: TSample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!.replace(/\\(.)/g, "$1");
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(baseUrl = server.baseUrl, token: string | null = METRICS_TOKEN): Promise<TSample[]> {
  const res = await fetch(`${baseUrl}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(await res.text());
}

const requestCount = (samples: TSample[], route: string, method: string, status: string) =>
  samples.find((s) => s.name === "http_request_duration_seconds_count" && s.labels.route === route && s.labels.method === method && s.labels.status === status)?.value ?? 0;

describe("/metrics", () => {
  test("is not found without the token, or with another one; answers with it", async () => {
    const refused: Record<string, string>[] = [{}, { authorization: "Bearer wrong-token-0123456789" }, { authorization: METRICS_TOKEN }, { authorization: `Basic ${METRICS_TOKEN}` }];
    for (const headers of refused) {
      const res = await fetch(`${server.baseUrl}/metrics`, { headers });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("http_request_duration_seconds");
    }
    expect((await scrape()).length).toBeGreaterThan(0);
  });

  test("counts each request once, by its route's pattern and status, through the API lane and through Next alike", async () => {
    const { data } = await (await fetch(`${server.baseUrl}/v1/contracts?limit=1`, { headers: admin })).json();
    const id = data[0].id as number;
    const route = "/v1/contracts/{contract_id}";
    const before = await scrape();
    // The lane takes the plain path; a percent-escape in the path sends it through Next's router.
    for (let i = 0; i < 3; i += 1) expect((await fetch(`${server.baseUrl}/v1/contracts/${id}`, { headers: admin })).status).toBe(200);
    const escaped = String(id).replace(/^./, (digit) => `%3${digit}`);
    for (let i = 0; i < 2; i += 1) expect((await fetch(`${server.baseUrl}/v1/contracts/${escaped}`, { headers: admin })).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/v1/contracts/999999999`, { headers: admin })).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/sign-in`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/v1/nothing-here/${id}`, { headers: admin })).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/no-such-page-${id}`)).status).toBe(404);

    // A response is counted when its connection reports it closed: give it a moment, then require exactly these.
    let after = await scrape();
    for (let i = 0; i < 40 && requestCount(after, route, "GET", "200") - requestCount(before, route, "GET", "200") < 5; i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      after = await scrape();
    }
    await new Promise((r) => setTimeout(r, 200));
    after = await scrape();
    expect(requestCount(after, route, "GET", "200") - requestCount(before, route, "GET", "200")).toBe(5);
    expect(requestCount(after, route, "GET", "404") - requestCount(before, route, "GET", "404")).toBe(1);
    expect(requestCount(after, "/sign-in", "GET", "200") - requestCount(before, "/sign-in", "GET", "200")).toBe(1);
    // Never the raw path: no label holds an id or an unknown path.
    const routes = new Set(after.filter((s) => s.name === "http_request_duration_seconds_count").map((s) => s.labels.route));
    expect([...routes].filter((r) => r!.split("/").includes(String(id)) || /nothing-here|no-such-page/.test(r!))).toEqual([]);
    expect(routes).toContain("/v1/{path*}");
    expect(routes).toContain("(other)");
    const buckets = after.filter((s) => s.name === "http_request_duration_seconds_bucket" && s.labels.route === route && s.labels.status === "200");
    expect(buckets.map((s) => s.labels.le)).toContain("+Inf");
  });

  test("names the job queues, the jobs, the database pool and the process", async () => {
    let samples = await scrape();
    // The jobs' first runs happen at start; their counters appear once a run has ended.
    for (let i = 0; i < 40 && !samples.some((s) => s.name === "job_runs_total" && s.value > 0); i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      samples = await scrape();
    }
    const names = new Set(samples.map((s) => s.name));
    for (const name of [
      "job_queue_depth",
      "job_queue_oldest_age_seconds",
      "job_runs_total",
      "job_failures_total",
      "job_last_run_age_seconds",
      "db_pool_connections",
      "db_pool_idle_connections",
      "db_pool_waiting_clients",
      "db_pool_max_connections",
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
      "nodejs_heap_size_used_bytes",
    ]) {
      expect(names, name).toContain(name);
    }
    const queues = samples.filter((s) => s.name === "job_queue_depth").map((s) => s.labels.queue).sort();
    expect(queues).toEqual(["contract_reminders", "count_deltas", "lifecycle", "mail", "overdue", "seals", "webhook_deliveries"]);
    const jobs = samples.filter((s) => s.name === "job_failures_total").map((s) => s.labels.job);
    expect(jobs).toEqual(expect.arrayContaining(["overdue check", "reminders", "contract count fold", "webhook dispatch", "sealing"]));
    expect(samples.find((s) => s.name === "db_pool_max_connections")!.value).toBeGreaterThan(0);
  });

  test("without METRICS_TOKEN: loopback callers only, and not through a proxy", async () => {
    const shared = inject("baseUrl");
    expect((await scrape(shared, null)).some((s) => s.name === "http_request_duration_seconds_count")).toBe(true);
    for (const header of ["x-forwarded-for", "forwarded", "x-real-ip", "x-forwarded-host", "cf-connecting-ip", "true-client-ip"]) {
      const res = await fetch(`${shared}/metrics`, { headers: { [header]: header === "forwarded" ? "for=203.0.113.9" : "203.0.113.9" } });
      expect(res.status, header).toBe(404);
    }
    // A page whose name was rebound to 127.0.0.1 sends that name as Host (node:http: fetch sends its own Host).
    const status = (host: string) =>
      new Promise<number | undefined>((resolve, reject) => {
        request(`${shared}/metrics`, { headers: { host } }, (res) => res.resume().on("end", () => resolve(res.statusCode))).on("error", reject).end();
      });
    expect(await status("evil.example")).toBe(404);
    expect(await status(new URL(shared).host)).toBe(200);
    expect(await status("localhost:9")).toBe(200);
  });
});

describe("/livez and /readyz", () => {
  test("alive, and ready with each check ok", async () => {
    const live = await fetch(`${server.baseUrl}/livez`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "alive" });
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok", jobs: "ok" } });
    expect(ready.status).toBe(200);
  });

  test("not ready (503) while a migration of prisma/migrations is not applied, naming it; ready again once it is", async () => {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT * FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1");
      const newest = rows[0];
      await client.query("DELETE FROM _prisma_migrations WHERE id = $1", [newest.id]);
      try {
        // A readiness check answers for READINESS_REUSE_MS: the one before the change may still be the answer.
        await sleep(READINESS_REUSE_MS);
        const res = await fetch(`${server.baseUrl}/readyz`);
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ status: "not_ready", checks: { database: "ok", migrations: `not applied: ${newest.migration_name}`, jobs: "ok" } });
      } finally {
        const columns = Object.keys(newest);
        await client.query(`INSERT INTO _prisma_migrations (${columns.join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`, Object.values(newest));
      }
      await sleep(READINESS_REUSE_MS);
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    } finally {
      await client.end();
    }
  });

  test("ready, naming it, while an applied migration differs from this build's file (not its line ends); plain ok again once it does not", async () => {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string; migration_name: string; checksum: string }>("SELECT id, migration_name, checksum FROM _prisma_migrations ORDER BY migration_name LIMIT 1");
      const oldest = rows[0]!;
      const ready = async () => {
        await sleep(READINESS_REUSE_MS);
        const res = await fetch(`${server.baseUrl}/readyz`);
        return { status: res.status, body: await res.json() };
      };
      try {
        await client.query("UPDATE _prisma_migrations SET checksum = $2 WHERE id = $1", [oldest.id, "0".repeat(64)]);
        expect(await ready()).toEqual({ status: 200, body: { status: "ready", checks: { database: "ok", migrations: `ok (changed since applied: ${oldest.migration_name})`, jobs: "ok" } } });
        // The same file with CRLF line ends (a checkout that converted them) is the same migration.
        const sql = readFileSync(path.join(process.cwd(), "prisma", "migrations", oldest.migration_name, "migration.sql"), "utf8");
        await client.query("UPDATE _prisma_migrations SET checksum = $2 WHERE id = $1", [oldest.id, createHash("sha256").update(sql.replace(/\n/g, "\r\n")).digest("hex")]);
        expect(await ready()).toEqual({ status: 200, body: { status: "ready", checks: { database: "ok", migrations: "ok", jobs: "ok" } } });
      } finally {
        await client.query("UPDATE _prisma_migrations SET checksum = $2 WHERE id = $1", [oldest.id, oldest.checksum]);
      }
      await sleep(READINESS_REUSE_MS);
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    } finally {
      await client.end();
    }
  });
});
