// The benchmark's reference route: inside Next.js (same build, same framework treatment as a /v1
// route: the front door, next.config.mjs's /v1 headers, no proxy.ts, the App Router's route
// handler), it answers the benchmark's requests with the floor's one statement per request
// (bench/floor-sql.ts) through a `pg` Pool of its own, as many connections as the app's.
// `/v1/bench-reference/contracts/12` answers what `/v1/contracts/12` answers. The benchmark serves
// it from a server process of its own (the same build), so its CPU and memory are never counted as
// the app's. The app's throughput against this route's is the part the framework leaves to the app.
//
// A `.bench.ts` route exists only in the benchmark's build (BENCH_PAGES=1, next.config.mjs), never
// in a production build.
import pg from "pg";
import { answerFloorRequest, type FloorResponse } from "@/bench/floor-sql";

const PREFIX = "/v1/bench-reference";

const state = globalThis as typeof globalThis & { __benchReferencePool?: Promise<pg.Pool> };

/**
 * The reference's own pool, as the app's: on PostgreSQL 10 connections with prepared statements;
 * on an embedded database (BENCH_REFERENCE_EMBEDDED=1, reached through DATABASE_URL at its socket,
 * or EMBEDDED_DB_SOCKET_DIR) 8, unprepared (its connections share one session).
 */
function pool(): Promise<pg.Pool> {
  state.__benchReferencePool ??= (async () => {
    const url = process.env.DATABASE_URL;
    if (url) return new pg.Pool({ connectionString: url, max: embedded() ? 8 : 10 });
    const { embeddedDatabaseUrl } = await import("@/lib/db/embedded");
    const dir = process.env.EMBEDDED_DB_SOCKET_DIR;
    if (!dir) throw new Error("bench reference: neither DATABASE_URL nor EMBEDDED_DB_SOCKET_DIR is set");
    return new pg.Pool({ connectionString: embeddedDatabaseUrl(dir), max: 8 });
  })();
  return state.__benchReferencePool;
}

/** An embedded database: 8 connections and statements not prepared by name (as `queryOne` in lib/db/query.ts). */
const embedded = () => process.env.BENCH_REFERENCE_EMBEDDED === "1" || !process.env.DATABASE_URL;

function reply(answer: FloorResponse): Response {
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store" };
  if (answer.etag) headers.etag = answer.etag;
  return new Response(answer.body, { status: answer.status, headers });
}

async function handle(req: Request): Promise<Response> {
  const url = new URL(req.url);
  // The origin as the app builds it (lib/http/origin.ts `requestOrigin` without PUBLIC_URL): the front door sets
  // x-forwarded-proto; the host is the one the client used.
  const proto = req.headers.get("x-forwarded-proto") === "https" ? "https" : "http";
  const origin = `${proto}://${(req.headers.get("host") ?? url.host).toLowerCase()}`;
  return reply(
    await answerFloorRequest(await pool(), {
      method: req.method,
      pathname: `/v1${url.pathname.slice(PREFIX.length)}`,
      searchParams: url.searchParams,
      token: req.headers.get("x-service-api-token"),
      email: req.headers.get("x-service-user-email"),
      contentType: req.headers.get("content-type"),
      origin,
      requestId: req.headers.get("x-request-id"),
      readBody: () => req.text(),
    }, { prepared: !embedded() }),
  );
}

export const GET = handle;
export const PUT = handle;
