import { afterAll, beforeAll, expect, test } from "vitest";
import { createPrismaClient } from "@/lib/db/pool";
import { applyMigrations } from "@/lib/db/schema-engine";
import { seedDemoData } from "@/lib/seed/demo";
import { OwnCluster } from "@/test/fault/own-cluster";
import { TEST_ADMIN_PASSWORD, TEST_API_TOKEN, freePort, startServer, type RunningServer } from "@/test/helpers/server";

// Readiness is told apart from liveness (docs/security.md "Operations"): with its database down the
// server is alive (/livez 200) and not ready (/readyz 503 naming the database), and ready again by
// itself once the database is back.

let cluster: OwnCluster;
let server: RunningServer;

beforeAll(async () => {
  cluster = new OwnCluster(await freePort());
  cluster.init();
  cluster.start();
  await applyMigrations(cluster.url);
  const db = createPrismaClient(cluster.url, 2);
  await seedDemoData(db, { apiToken: TEST_API_TOKEN, adminPassword: TEST_ADMIN_PASSWORD });
  await db.$disconnect();
  server = await startServer({ databaseUrl: cluster.url });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  cluster?.destroy();
});

const probe = async (path: string) => {
  const res = await fetch(`${server.baseUrl}${path}`, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.json() };
};

test("/readyz is 503 naming the database while it is down, /livez stays 200, and both are 200 once it is back", async () => {
  expect(await probe("/readyz")).toEqual({ status: 200, body: { status: "ready", checks: { database: "ok", migrations: "ok", jobs: "ok" } } });

  cluster.stop("immediate");
  // A check answers for a second (READINESS_REUSE_MS): the one before the stop may still be the answer.
  let down = await probe("/readyz");
  for (let i = 0; i < 25 && down.status === 200; i += 1) {
    await new Promise((r) => setTimeout(r, 200));
    down = await probe("/readyz");
  }
  expect(down).toEqual({ status: 503, body: { status: "not_ready", checks: { database: "not reachable", migrations: "unknown (no database)", jobs: "ok" } } });
  expect(await probe("/livez")).toEqual({ status: 200, body: { status: "alive" } });

  cluster.start();
  let again = await probe("/readyz");
  for (let i = 0; i < 50 && again.status !== 200; i += 1) {
    await new Promise((r) => setTimeout(r, 200));
    again = await probe("/readyz");
  }
  expect(again.status).toBe(200);
});
