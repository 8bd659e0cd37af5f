import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readAtMost } from "@/server/read-body.mjs";

// `readAtMost` (server/read-body.mjs) reads a request's whole body for the front door and the API
// lane. Its promise: it always settles (with the bytes, with null past the limit, with undefined
// when the client goes away), so no request waits forever on a body that will never come.

const MAX = 64;
let server: http.Server;
let port: number;
/** Who waits for what each request's `readAtMost` settles with, by the request's path. */
const waiting = new Map<string, (value: Buffer | null | undefined) => void>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    void readAtMost(req, MAX).then((value: Buffer | null | undefined) => {
      waiting.get(req.url!)?.(value);
      if (value) res.end(`read ${value.length}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends `head` and the body's pieces, then `end` (or stays), and waits for what the reader settled with. */
function send(path: string, length: number | "chunked", pieces: string[], after: "wait" | "destroy"): Promise<Buffer | null | undefined> {
  const result = new Promise<Buffer | null | undefined>((resolve, reject) => {
    waiting.set(path, resolve);
    setTimeout(() => reject(new Error(`the reader for ${path} never settled`)), 3_000).unref();
  });
  const framing = length === "chunked" ? "transfer-encoding: chunked" : `content-length: ${length}`;
  const socket = net.connect(port, "127.0.0.1", async () => {
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${framing}\r\n\r\n`);
    for (const piece of pieces) {
      socket.write(length === "chunked" ? `${piece.length.toString(16)}\r\n${piece}\r\n` : piece);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    if (length === "chunked" && after === "wait") socket.write("0\r\n\r\n");
    if (after === "destroy") socket.destroy();
  });
  socket.on("error", () => {});
  socket.on("data", () => {});
  return result.finally(() => socket.destroy());
}

describe("readAtMost", () => {
  test("gives the whole body, sent in pieces, declared or chunked", async () => {
    expect((await send("/declared", 10, ["hello", "world"], "wait"))?.toString()).toBe("helloworld");
    expect((await send("/chunked", "chunked", ["a", "bc", "def"], "wait"))?.toString()).toBe("abcdef");
    expect((await send("/empty", 0, [], "wait"))?.length).toBe(0);
  });

  test("gives null once the body passes the limit, and the whole body when it is exactly the limit", async () => {
    expect(await send("/large", "chunked", ["x".repeat(MAX), "y"], "wait")).toBeNull();
    expect((await send("/exactly", MAX, ["x".repeat(MAX)], "wait"))?.length).toBe(MAX);
  });

  test("settles (undefined) when the client goes away before the end, declared or chunked", async () => {
    expect(await send("/cut-declared", 100, ["only ten b"], "destroy")).toBeUndefined();
    expect(await send("/cut-chunked", "chunked", ["some"], "destroy")).toBeUndefined();
    expect(await send("/cut-before-any", 100, [], "destroy")).toBeUndefined();
  });
});
