import { spawn } from "node:child_process";
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

/**
 * On one connection the server has taken (a ping answered on it first, so a loaded server that has
 * not yet accepted it cannot miss it at the signal), sends `head` and the start of `body`; `rest()`
 * sends the remainder and resolves with the raw answer to it.
 */
async function slowRequest(port: number, head: string, body: string) {
  const socket = net.connect(port, "127.0.0.1");
  let answer = "";
  let pinging = true;
  let pingAnswered!: () => void;
  const pinged = new Promise<void>((resolve) => (pingAnswered = resolve));
  // An answer is whole once its head has come, and then as many bytes as its Content-Length says, or the last chunk.
  const whole = (text: string) => {
    const end = text.indexOf("\r\n\r\n");
    if (end < 0) return false;
    const length = /content-length: (\d+)/i.exec(text.slice(0, end));
    return length ? text.length >= end + 4 + Number(length[1]) : text.endsWith("0\r\n\r\n");
  };
  const ended = new Promise<string>((resolve, reject) => {
    socket.on("data", (chunk) => {
      answer += chunk;
      if (pinging && whole(answer)) {
        pinging = false;
        answer = "";
        pingAnswered();
      }
    });
    socket.on("end", () => resolve(answer));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
  socket.write(`GET /v1/ping HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  await Promise.race([pinged, ended.then(() => Promise.reject(new Error("the connection ended before the ping was answered")))]);
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
  const inFlight = await slowRequest(port, head, body);
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

test("SIGTERM with a client still sending a request's head: nothing was asked, so nothing is waited for; exit 0", async () => {
  // On a database of its own: the first test's second server still holds the shared one.
  const server = await startServer({ env: { LOG_LEVEL: "info" } });
  servers.push(server);
  const port = Number(new URL(server.baseUrl).port);
  const slow = net.connect(port, "127.0.0.1");
  slow.on("error", () => undefined);
  const closed = new Promise((resolve) => slow.once("close", resolve));
  // A head without its end (no blank line): the server has no request yet.
  slow.write(`POST /v1/contracts/create HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n`);
  await new Promise((r) => setTimeout(r, 300));
  process.kill(server.pid, "SIGTERM");
  // Waited for, it would be cut after the shutdown's limit (25 s) and the exit code 1.
  expect(await server.exited).toBe(0);
  await closed;
  expect(server.logs()).toContain("shut down: every request answered, the jobs stopped");
}, 240_000);

test("SIGTERM to `npm start` reaches the server, which shuts down as it does on its own SIGTERM", async () => {
  // On a database of its own (the embedded one, whichever the suite runs on): the signal's path is the same.
  const server = await startServer({ viaNpmStart: true, env: { LOG_LEVEL: "info" } });
  servers.push(server);
  process.kill(server.pid, "SIGTERM");
  const code = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r("still running after 20 s"), 20_000))]);
  expect(code).toBe(0);
  expect(server.logs()).toContain("shut down: every request answered, the jobs stopped");
  await expect(fetch(`${server.baseUrl}/livez`)).rejects.toThrow();
}, 240_000);

test("a port already taken: the server says so and exits 1, holding nothing", async () => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const port = (taken.address() as net.AddressInfo).port;
  try {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "contracts-port-taken-"));
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PGLITE_DATA_DIR: dataDir, LOG_LEVEL: "info" };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ["server.mjs", "-p", String(port), "-H", "127.0.0.1"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const code = await Promise.race([new Promise((r) => child.once("exit", r)), new Promise((r) => setTimeout(() => r("still running after 60 s"), 60_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
    expect(code, output).toBe(1);
    expect(output).toContain(`cannot listen on 127.0.0.1, port ${port}`);
  } finally {
    taken.close();
  }
}, 120_000);
