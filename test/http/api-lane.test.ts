import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PrismaClient } from "@/lib/db";
import { createPrismaClient } from "@/lib/db/pool";
import { createContract, createUser } from "@/lib/db/seed/factories";
import { startServerOnFreshDatabase } from "@/test/helpers/fresh-server";
import { startServer, TEST_API_TOKEN, type RunningServer } from "@/test/helpers/server";
import { LANE_READS_WHOLE } from "@/server/api-lane.mjs";

// The API lane (server/api-lane.mjs) answers `/v1` requests without Next's router. Its promise:
// every answer is the one Next gives. Two servers on one database, the lane on and off
// (API_LANE=off), get the same requests, and must give the same status, headers and body.

let lane: RunningServer;
let next: RunningServer;
let db: PrismaClient;
let contractId: number;
let participantPath: string;
const admin = { "x-service-api-token": TEST_API_TOKEN, "x-service-user-email": "admin@example.com" };

beforeAll(async () => {
  next = await startServerOnFreshDatabase({ API_LANE: "off", LOG_LEVEL: "info" });
  lane = await startServer({ databaseUrl: next.databaseUrl, env: { LOG_LEVEL: "info" } });
  db = createPrismaClient(next.databaseUrl, 1);
  const sales = await db.workspace.findFirstOrThrow({ where: { name: "Sales" } });
  const template = await db.template.findFirstOrThrow({ where: { name: "Mutual NDA" } });
  const owner = await createUser(db, { memberships: [{ workspaceId: sales.id, role: "editor" }] });
  const contract = await createContract(db, {
    workspaceId: sales.id,
    templateId: template.id,
    name: "Lane – “parity” \\ 🚀",
    owner,
    counterparties: [{ type: "company", name: "Buyer AB", participants: [{ name: "Ann" }] }],
  });
  contractId = contract.id;
  const party = await db.party.findFirstOrThrow({ where: { contractId, myParty: false }, include: { participants: true } });
  participantPath = `/v1/contracts/${contractId}/parties/${party.id}/participants/${party.participants[0]!.id}`;
}, 240_000);

afterAll(async () => {
  await db?.$disconnect();
  await lane?.stop();
  await next?.stop();
});

/** `chunked`: the body goes as a stream, so without Content-Length. */
type Sent = { method?: string; headers?: Record<string, string>; body?: string; chunked?: boolean };

/** Headers that differ between any two answers (time, connection, framing). */
const VOLATILE = new Set(["date", "keep-alive", "connection", "transfer-encoding", "content-length"]);

async function ask(server: RunningServer, path: string, sent: Sent, requestId: string) {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method: sent.method ?? "GET",
    headers: { "x-request-id": requestId, ...sent.headers },
    ...(sent.body === undefined ? {} : sent.chunked ? { body: chunked(sent.body), duplex: "half" } : { body: sent.body }),
    redirect: "manual",
  } as RequestInit);
  // Links carry the server's own host and port.
  const host = new URL(server.baseUrl).host;
  const local = (text: string) => text.replaceAll(host, "SERVER");
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !VOLATILE.has(name)).map(([name, value]) => [name, local(value)]));
  const text = await res.text();
  // Next streams a route's answer (chunked); the lane has it whole and says its length.
  const whole = res.headers.get("content-length") !== null;
  return { status: res.status, headers, body: local(text), size: Buffer.byteLength(text), whole };
}

/** The same request to both servers (same request id, so bodies that carry it match too). */
async function both(path: string, sent: Sent = {}) {
  const id = `lane-${Math.random().toString(36).slice(2)}`;
  const fromNext = await ask(next, path, sent, id);
  const fromLane = await ask(lane, path, sent, id);
  return { fromNext, fromLane };
}

function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.slice(0, 3));
      controller.enqueue(bytes.slice(3));
      controller.close();
    },
  });
}

async function expectSame(path: string, sent: Sent = {}) {
  const { fromNext, fromLane } = await both(path, sent);
  const what = `${sent.method ?? "GET"} ${path}`;
  expect(fromLane.status, what).toBe(fromNext.status);
  expect(fromLane.headers, what).toEqual(fromNext.headers);
  if (fromLane.body !== fromNext.body) {
    // Where they part, not two whole bodies.
    let at = 0;
    while (fromLane.body[at] === fromNext.body[at]) at++;
    expect(fromLane.body.slice(Math.max(0, at - 80), at + 80), `${what}: the bodies differ at ${at}`).toBe(fromNext.body.slice(Math.max(0, at - 80), at + 80));
  }
  return fromLane;
}

describe("the lane answers as Next does", () => {
  test("the lane is on in one server and off in the other, and the lane answers what it takes", async () => {
    expect(lane.logs()).toMatch(/"routes":\d+,"msg":"api lane on"/);
    expect(next.logs()).not.toContain("api lane");
    // Next streams a route's answer (chunked); the lane has it whole and says its length.
    const viaLane = await fetch(`${lane.baseUrl}/v1/ping`);
    const viaNext = await fetch(`${next.baseUrl}/v1/ping`);
    expect([viaLane.headers.get("content-length"), viaLane.headers.get("transfer-encoding")]).toEqual(["15", null]);
    expect([viaNext.headers.get("content-length"), viaNext.headers.get("transfer-encoding")]).toEqual([null, "chunked"]);
  });

  test("reads: one contract, its data fields, lists, lookups", async () => {
    for (const path of [
      `/v1/contracts/${contractId}`,
      `/v1/contracts/${contractId}/data_fields?limit=all`,
      `/v1/contracts/${contractId}/parties`,
      "/v1/contracts?limit=3&offset=1",
      "/v1/contracts?limit=2&q=Lane&q=x&flag&sort=name",
      "/v1/contracts?limit=2&q=a+b%20c&state=draft",
      "/v1/contracts?limit=%zz",
      "/v1/contracts?limit=1&limit=2&offset=0",
      "/v1/contracts?limit=2&q=%00&q=%ff&q=%E2%80%93",
      "/v1/contracts?limit=2&a[b]=1&__proto__=1&constructor=x&hasOwnProperty=y",
      "/v1/contracts?limit=2&&&=x&q==",
      `/v1/contracts/${contractId}?x=${"a".repeat(2000)}`,
      "/v1/template_types?limit=3",
      "/v1/workspaces",
      "/v1/users?limit=2",
      "/v1/error_codes",
    ]) {
      const answer = await expectSame(path, { headers: admin });
      expect(answer.status, path).toBeLessThan(500);
    }
    expect((await expectSame(`/v1/contracts/${contractId}`, { headers: admin })).body).toContain("🚀");
  });

  test("a query of escaped values (a search of two words, an address, letters beyond ASCII) is the lane's, answered as Next does", async () => {
    for (const path of [
      "/v1/contracts?limit=2&q=Lane+parity",
      "/v1/contracts?limit=2&q=Lane%20%E2%80%9Cparity%E2%80%9D&sort=name",
      "/v1/contracts?limit=2&q=ann%40example.org",
      "/v1/contracts?limit=2&q=%F0%9F%9A%80",
      "/v1/contracts?limit=2&q=%2B%25%26%3D%23%3F%2F",
      "/v1/contracts?limit=2&q=%ff%C3",
      "/v1/contracts?limit=2&q=%00",
      "/v1/contracts?limit=%32",
      "/v1/contracts?limit=2&q=ann@example.org,x~y:z",
      "/v1/contracts?limit=2&updated_before=2099-01-01T00:00:00Z",
      "/v1/contracts?limit=2&updated_before=2099-01-01T00%3A00%3A00.000Z",
    ]) {
      const answer = await expectSame(path, { headers: admin });
      expect(answer.status, path).toBeLessThan(500);
      expect(answer.whole, `${path}: the lane answered`).toBe(true);
    }
    expect((await expectSame("/v1/contracts?limit=2&q=Lane+parity", { headers: admin })).body).toContain("parity");
    // Keys stay plain: an escaped key (`%71` is `q`) is Next's.
    expect((await expectSame("/v1/contracts?limit=2&%71=Lane", { headers: admin })).whole).toBe(false);
  });

  test("errors: unknown routes and ids, bad and missing credentials", async () => {
    for (const [path, headers] of [
      ["/v1/no/such/route", admin],
      ["/v1/contracts/999999999", admin],
      ["/v1/contracts/abc", admin],
      ["/v1/contracts/1e3", admin],
      ["/v1/contracts/2147483648", admin],
      ["/v1/contracts/1;x", admin],
      ["/v1/contracts/1.json", admin],
      ["/v1/CONTRACTS", admin],
      ["/v1/Ping", {}],
      ["/v1/contracts/create/extra", admin],
      ["/v1/contracts", {}],
      ["/v1/contracts", { "x-service-api-token": "not-a-token-0123456789" }],
      ["/v1/contracts", { ...admin, "x-service-user-email": "nobody@example.com" }],
    ] as const) {
      const answer = await expectSame(path, { headers });
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
    }
  });

  test("methods: HEAD and OPTIONS as Next implements them, and a method a route does not export", async () => {
    expect((await expectSame("/v1/ping", { method: "HEAD" })).body).toBe("");
    expect((await expectSame(`/v1/contracts/${contractId}`, { method: "HEAD", headers: admin })).status).toBe(200);
    // OPTIONS as Next implements it; and methods these routes do not export (405).
    for (const path of ["/v1/ping", `/v1/contracts/${contractId}`, "/v1/contracts/create", participantPath]) {
      expect((await expectSame(path, { method: "OPTIONS", headers: admin })).status).toBeLessThan(500);
    }
    for (const [method, path] of [["PATCH", "/v1/ping"], ["DELETE", "/v1/ping"], ["POST", "/v1/ping"], ["PATCH", "/v1/contracts/create"], ["POST", participantPath], ["PUT", "/v1/openapi.json"], ["DELETE", "/v1/error_codes"]]) {
      expect((await expectSame(path!, { method, headers: admin })).status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
    }
  });

  test("bodies: refused bodies, sent whole and chunked", async () => {
    const json = { ...admin, "content-type": "application/json" };
    for (const body of ["{", "[]", '{"title": 5}', '{"unknown": 1}', "", '{"title":"x","title":"y"}']) {
      const answer = await expectSame(participantPath, { method: "PUT", headers: json, body });
      expect(answer.status, body).toBeGreaterThanOrEqual(400);
    }
    await expectSame(participantPath, { method: "PUT", headers: { ...admin, "content-type": "text/plain" }, body: '{"title":"x"}' });
    await expectSame("/v1/contracts/create", { method: "POST", headers: json, body: '{"workspace_id": "x"}' });
    // Chunked (no Content-Length): the front door reads it first, then hands it on.
    expect((await expectSame(participantPath, { method: "PUT", headers: json, body: "{", chunked: true })).status).toBe(400);
    expect((await expectSame(participantPath, { method: "PUT", headers: json, body: '{"title": 5}', chunked: true })).status).toBe(400);
  });

  test("bodies the lane reads whole before the handler: in pieces, cut off, and one too large to", async () => {
    const participantId = Number(participantPath.split("/").at(-1));
    // Sent in two writes 150 ms apart: the handler gets the whole body once it is all there.
    const put = (title: string) => `{"title":${JSON.stringify(title)}}`;
    const head = (length: number) =>
      `PUT ${participantPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-service-api-token: ${TEST_API_TOKEN}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\nConnection: close\r\n\r\n`;
    const send = (server: RunningServer, write: (socket: net.Socket) => Promise<void>) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(new URL(server.baseUrl).port), "127.0.0.1");
        let text = "";
        socket.on("data", (d) => (text += d));
        socket.on("close", () => resolve(text));
        socket.on("error", (e) => (text ? resolve(text) : reject(e)));
        socket.setTimeout(15_000, () => socket.destroy(new Error("no answer")));
        socket.once("connect", () => void write(socket).catch((e: Error) => socket.destroy(e)));
      });
    const body = put("Sent in two pieces");
    const answer = await send(lane, async (socket) => {
      socket.write(head(Buffer.byteLength(body)) + body.slice(0, 5));
      await new Promise((resolve) => setTimeout(resolve, 150));
      socket.write(body.slice(5));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect((await db.participant.findUniqueOrThrow({ where: { id: participantId } })).title).toBe("Sent in two pieces");

    // Cut off: the client declares 100 bytes, sends 10 and goes away. Nothing is written, nothing
    // fails, and the server answers the next request.
    const before = await db.participant.findUniqueOrThrow({ where: { id: participantId } });
    await send(lane, async (socket) => {
      socket.write(head(100) + put("Cut").slice(0, 10));
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.destroy();
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await db.participant.findUniqueOrThrow({ where: { id: participantId } })).toEqual(before);
    expect((await fetch(`${lane.baseUrl}/v1/ping`)).status).toBe(200);
    expect(lane.logs()).not.toContain('"msg":"request failed"');

    // Larger than the lane reads whole: streamed to the handler as before, and answered as Next does.
    const json = { ...admin, "content-type": "application/json" };
    const large = JSON.stringify({ title: "Large", padding: "x".repeat(LANE_READS_WHOLE) });
    expect(Buffer.byteLength(large)).toBeGreaterThan(LANE_READS_WHOLE);
    expect((await expectSame(participantPath, { method: "PUT", headers: json, body: large })).status).toBe(400);
    const exactly = put("y".repeat(LANE_READS_WHOLE - Buffer.byteLength(put(""))));
    expect(Buffer.byteLength(exactly)).toBe(LANE_READS_WHOLE);
    expect((await expectSame(participantPath, { method: "PUT", headers: json, body: exactly })).status).toBeGreaterThanOrEqual(400);
  });

  test("a change: the same PUT through each answers alike and writes", async () => {
    const json = { ...admin, "content-type": "application/json" };
    const viaNext = await ask(next, participantPath, { method: "PUT", headers: json, body: JSON.stringify({ title: "Through Next" }) }, "lane-put-1");
    const viaLane = await ask(lane, participantPath, { method: "PUT", headers: json, body: JSON.stringify({ title: "Through the lane" }) }, "lane-put-2");
    expect(viaNext.status).toBe(200);
    expect(viaLane.status).toBe(200);
    expect(Object.keys(viaLane.headers).sort()).toEqual(Object.keys(viaNext.headers).sort());
    // The two writes happened at different times.
    const untimed = (key: string, value: unknown) => (key === "updated_time" ? null : value);
    const a = JSON.parse(viaNext.body, untimed) as Record<string, unknown>;
    const b = JSON.parse(viaLane.body, untimed) as Record<string, unknown>;
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    expect(b.title).toBe("Through the lane");
    expect({ ...b, title: null }).toEqual({ ...a, title: null });
    const participantId = Number(participantPath.split("/").at(-1));
    expect((await db.participant.findUniqueOrThrow({ where: { id: participantId } })).title).toBe("Through the lane");
    // Log lines go out within a few milliseconds (lib/logger.ts): wait for it.
    const logged = () => lane.logs().split("\n").find((l) => l.includes('"request_id":"lane-put-2"') && l.includes('"msg":"request"'));
    for (const until = Date.now() + 5_000; !logged() && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 20));
    const line = logged();
    expect(line, "the handler's own log line").toContain('"route":"/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}"');
  });

  test("no compression (next.config compress: false, the proxy's job), security headers and forwarded headers as Next sends them", async () => {
    const large = await expectSame("/v1/contracts?limit=100", { headers: { ...admin, "accept-encoding": "gzip" } });
    expect(large.headers["content-encoding"]).toBeUndefined();
    expect(large.size).toBeGreaterThan(1024);
    expect((await expectSame("/v1/openapi.json", { headers: { "accept-encoding": "br, gzip" } })).status).toBe(200);
    const plain = await expectSame("/v1/ping", { headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(plain.headers["x-frame-options"]).toBe("DENY");
    // From an untrusted peer the front door drops forwarded headers: no HSTS, links to the Host.
    await expectSame("/v1/contracts?limit=1", { headers: { ...admin, "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" } });
    await expectSame("/v1/no/such", { headers: { host: "api.example.com:8443" } });
  });

  test("without Accept-Encoding (which fetch always sends): the same headers, Vary included", async () => {
    const raw = (server: RunningServer, path: string, method: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const req = http.request(`${server.baseUrl}${path}`, { method, headers }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () => {
            const kept = Object.entries(res.headers).filter(([name]) => !VOLATILE.has(name));
            const host = new URL(server.baseUrl).host;
            resolve({ status: res.statusCode!, headers: Object.fromEntries(kept), body: body.replaceAll(host, "SERVER") });
          });
        });
        req.on("error", reject);
        req.end();
      });
    for (const [method, path] of [["GET", "/v1/ping"], ["HEAD", "/v1/ping"], ["GET", `/v1/contracts/${contractId}`], ["GET", "/v1/contracts?limit=50"], ["GET", "/v1/nothing"]] as const) {
      const headers = { ...admin, "x-request-id": "lane-raw" };
      const [fromNext, fromLane] = [await raw(next, path, method, headers), await raw(lane, path, method, headers)];
      expect(fromLane, `${method} ${path}`).toEqual(fromNext);
      expect(fromLane.headers.vary, `${method} ${path}`).toBe("rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch");
      expect(fromLane.headers["content-encoding"]).toBeUndefined();
    }
  });

  test("what the lane leaves to Next gives Next's answer too", async () => {
    for (const path of ["/v1/contracts/%31", `/v1/contracts?nxtPcontract_id=${contractId}`, `/v1/contracts/${contractId}?_rsc=1`, "/v1/pin%67", "/v1"]) {
      await expectSame(path, { headers: admin });
    }
  });
});
