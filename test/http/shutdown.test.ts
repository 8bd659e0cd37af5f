import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createPrismaClient } from "@/lib/db/pool";
import { applyMigrations } from "@/lib/db/schema-engine";
import { seedDemoData } from "@/lib/seed/demo";
import { createServerDatabase, testDatabaseKind } from "@/test/helpers/db";
import { TEST_ADMIN_PASSWORD, TEST_API_TOKEN, startServer, type RunningServer } from "@/test/helpers/server";

// On SIGTERM the server stops taking connections, finishes the request in flight (a create whose
// body is still arriving), stops the jobs, and exits 0; the create is stored exactly once
// (docs/security.md "Operations").

let database: { dataDir?: string; databaseUrl?: string; drop(): Promise<void> };
const servers: RunningServer[] = [];

beforeAll(async () => {
  if (testDatabaseKind() === "postgres") {
    const created = await createServerDatabase("contracts_shutdown");
    await applyMigrations(created.url);
    const prisma = createPrismaClient(created.url, 2);
    await seedDemoData(prisma, { apiToken: TEST_API_TOKEN, adminPassword: TEST_ADMIN_PASSWORD });
    await prisma.$disconnect();
    database = { databaseUrl: created.url, drop: created.drop };
  } else {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "contracts-shutdown-"));
    database = { dataDir, drop: () => rm(dataDir, { recursive: true, force: true }) };
  }
});

afterAll(async () => {
  for (const server of servers) await server.stop();
  await database?.drop();
});

const start = async () => {
  const server = await startServer({ ...database, env: { LOG_LEVEL: "info" } });
  servers.push(server);
  return server;
};

async function contractsNamed(server: RunningServer, name: string): Promise<number> {
  const db = createPrismaClient(server.databaseUrl, 1);
  try {
    return await db.contract.count({ where: { name } });
  } finally {
    await db.$disconnect();
  }
}

/** Sends `head` and the start of `body`; `rest()` sends the remainder and resolves with the raw answer. */
function slowRequest(port: number, head: string, body: string) {
  const socket = net.connect(port, "127.0.0.1");
  let answer = "";
  const ended = new Promise<string>((resolve, reject) => {
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
  const half = Math.floor(body.length / 2);
  socket.write(head + body.slice(0, half));
  return {
    rest() {
      socket.write(body.slice(half));
      return ended;
    },
  };
}

test("SIGTERM: a request in flight completes with 200, new connections are refused, the process exits 0, the write is stored once", async () => {
  const server = await start();
  const port = Number(new URL(server.baseUrl).port);
  const db = createPrismaClient(server.databaseUrl, 1);
  const template = await db.template.findFirstOrThrow({ where: { name: "Mutual NDA" }, include: { workspaces: true } });
  await db.$disconnect();

  const name = `In flight at SIGTERM ${Date.now()}`;
  const body = JSON.stringify({
    workspace_id: template.workspaces[0]!.workspaceId,
    template_id: template.id,
    name,
    parties: [{ type: "individual", participant: { name: "Sig Term", email: "sig.term@example.org" } }],
  });
  const head =
    `POST /v1/contracts/create HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
    `x-service-api-token: ${TEST_API_TOKEN}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  const inFlight = slowRequest(port, head, body);
  // The server has the request's head (and half its body) before the signal.
  await new Promise((r) => setTimeout(r, 500));
  process.kill(server.pid, "SIGTERM");

  // New connections are refused from then on (the listening socket is closed).
  let refused: string | undefined;
  for (let i = 0; i < 40 && refused === undefined; i += 1) {
    await new Promise((r) => setTimeout(r, 50));
    refused = await new Promise<string | undefined>((resolve) => {
      const probe = net.connect(port, "127.0.0.1");
      probe.once("connect", () => {
        probe.destroy();
        resolve(undefined);
      });
      probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code));
    });
  }
  expect(refused).toBe("ECONNREFUSED");
  // Still running: it waits for the request in flight.
  await new Promise((r) => setTimeout(r, 300));
  expect(await Promise.race([server.exited.then(() => "exited"), new Promise((r) => setTimeout(() => r("running"), 0))])).toBe("running");

  const answer = await inFlight.rest();
  expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  expect(answer).toContain(name);

  const code = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r("still running after 20 s"), 20_000))]);
  expect(code).toBe(0);
  expect(server.logs()).toContain("shut down: every request answered, the jobs stopped");

  // On the same database again: the contract is there, once.
  const again = await start();
  expect(await contractsNamed(again, name)).toBe(1);
}, 240_000);
