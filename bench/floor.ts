// The floor: the least a server can do to answer the benchmark's requests. A bare `node:http`
// server with a `pg` Pool (10 connections, as the app's) that answers each request with ONE SQL
// statement doing the whole job — token and user check, workspace scope, the rows, and the JSON
// built by PostgreSQL — and passes the text through (bench/floor-sql.ts, shared with the reference
// route inside Next.js). No framework, no ORM, no validation library, no serialization in Node.
// The app's throughput is reported as a ratio of this.
//
// Run by bench/run.ts as its own process: FLOOR_DATABASE_URL=postgresql://… FLOOR_PORT=… tsx bench/floor.ts
import http from "node:http";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { answerFloorRequest } from "./floor-sql";

function header(req: http.IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return typeof v === "string" ? v : null;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > 1024 * 1024) {
        reject(new Error("body too large"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export function createFloor(databaseUrl: string, poolSize = 10, prepared = true): { server: http.Server; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const options = { prepared };

  const server = http.createServer((req, res) => {
    // Links are built on the origin the client used, as the app does (no proxy in front here).
    const origin = `http://${(header(req, "host") ?? "localhost").toLowerCase()}`;
    const target = req.url ?? "/";
    const q = target.indexOf("?");
    answerFloorRequest(pool, {
      method: req.method ?? "GET",
      pathname: q === -1 ? target : target.slice(0, q),
      searchParams: new URLSearchParams(q === -1 ? "" : target.slice(q + 1)),
      token: header(req, "x-service-api-token"),
      email: header(req, "x-service-user-email"),
      contentType: header(req, "content-type"),
      origin,
      requestId: header(req, "x-request-id"),
      readBody: () => readBody(req),
    }, options).then(
      (answer) => {
        const headers: Record<string, string | number> = {
          "content-type": "application/json",
          "cache-control": "no-store",
          "content-length": Buffer.byteLength(answer.body),
        };
        if (answer.etag) headers.etag = answer.etag;
        res.writeHead(answer.status, headers);
        res.end(answer.body);
        // Drain a body nobody read (an error answered before it), so the connection stays usable.
        req.resume();
      },
      (error: unknown) => {
        console.error(error);
        const json = JSON.stringify({ status: 500, detail: "internal error" });
        res.writeHead(500, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
        res.end(json);
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  return { server, pool };
}

// Run as a program (the benchmark starts it in its own process).
const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const url = process.env.FLOOR_DATABASE_URL;
  const port = Number(process.env.FLOOR_PORT ?? 0);
  if (!url) throw new Error("FLOOR_DATABASE_URL is required");
  // FLOOR_PREPARED=0 on the embedded database (bench/floor-sql.ts FloorOptions).
  const { server, pool } = createFloor(url, Number(process.env.FLOOR_POOL_SIZE ?? 10), process.env.FLOOR_PREPARED !== "0");
  server.listen(port, "127.0.0.1", () => console.log(`floor listening on ${JSON.stringify(server.address())}`));
  const shutdown = () => {
    server.close(() => void pool.end().then(() => process.exit(0)));
    server.closeAllConnections();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}
