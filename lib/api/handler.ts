import { incomingRequestId, redactPath } from "@/lib/http/front-door";
import { randomUUID } from "node:crypto";
import type { Actor } from "@/lib/domain/actor";
import type { TPreload } from "@/lib/api/auth";
import { authenticate } from "@/lib/api/auth";
import { ApiError, errorResponse } from "@/lib/api/errors";
import { logger, logRequest, serializeError } from "@/lib/logger";
import { requestOrigin } from "@/lib/http/origin";
import { getPrisma, readyPrisma, type PrismaClient } from "@/lib/db";

/** What every handler gets. */
interface BaseContext {
  req: Request;
  url: URL;
  /** Dynamic segments of the route, e.g. `{ contract_id: "12" }` (parse with `parseIdParam`). */
  params: Record<string, string>;
  requestId: string;
  /** Origin for absolute links (`PUBLIC_URL` or the request's own). */
  origin: string;
  /**
   * What lib/api/endpoint.ts works out once per request and hands from the preload to the handler
   * (the parsed path and query). A slot of the request's own
   * context, not a WeakMap keyed by it: an entry of a WeakMap per request costs the garbage
   * collector (bench/results/history.md, "Allocations per request").
   */
  memo: { parsed?: unknown };
}
export interface ApiContext extends BaseContext {
  prisma: PrismaClient;
  actor: Actor;
  /** What the route's `preload` read in the authentication's statement (undefined without one). */
  preloaded: unknown;
}
export interface PublicApiContext extends BaseContext {
  prisma: PrismaClient;
  actor: null;
}
/** For endpoints that must answer without waiting for the database (readiness, 404s, 405s). */
export type BareApiContext = BaseContext;

type Handler<C> = (ctx: C) => Response | Promise<Response>;

/** The shape Next 16 calls a route export with (catch-all segments arrive as arrays). */
export type RouteHandler = (
  req: Request,
  ctx?: { params: Promise<Record<string, string | string[] | undefined>> },
) => Promise<Response>;

interface Options {
  /** The route pattern for logs, e.g. `/v1/contracts/{contract_id}`. */
  route: string;
  /** Default true: authenticate, and answer 401 before the handler runs. */
  auth?: boolean;
  /** Default true: open the database first, and answer 503 when it cannot be reached. */
  database?: boolean;
  /**
   * Rows to read in the same statement as the credentials (lib/api/auth.ts `TPreload`); undefined
   * (e.g. when the path does not parse, which the handler then answers) reads none.
   */
  preload?: (ctx: BaseContext) => TPreload | undefined;
}

/**
 * Wraps a /v1 route handler with what every endpoint needs: request id, database, authentication,
 * the one error mapping, `X-Request-Id` and `Cache-Control: no-store` on every answer, and one JSON
 * log line per request. Handlers just throw (`ApiError`, zod, Prisma errors) and never catch to answer.
 *
 * ```ts
 * export const GET = withApi(async ({ actor, params, prisma }) => json(…), { route: "/v1/contracts/{contract_id}" });
 * ```
 */
export function withApi(handler: Handler<ApiContext>, options: Options & { auth?: true; database?: true }): RouteHandler;
export function withApi(handler: Handler<PublicApiContext>, options: Options & { auth: false; database?: true }): RouteHandler;
export function withApi(handler: Handler<BareApiContext>, options: Options & { auth: false; database: false }): RouteHandler;
export function withApi(handler: Handler<never>, options: Options): RouteHandler {
  type TContext = BaseContext & { prisma?: PrismaClient; actor?: Actor | null; preloaded?: unknown };
  const run = handler as Handler<TContext>;
  return async (req, routeCtx) => {
    const started = performance.now();
    const requestId = incomingRequestId(req.headers.get("x-request-id")) ?? randomUUID();
    const url = new URL(req.url);
    let actor: Actor | null = null;
    let origin = url.origin;
    let response: Response;
    try {
      origin = requestOrigin(req, undefined, url);
      const params = flattenParams(await routeCtx?.params);
      const ctx: TContext = { req, url, params, requestId, origin, memo: {} };
      if (options.database !== false) {
        // Open: no promise to wait for (the usual case).
        const prisma = readyPrisma() ?? (await openDatabase());
        ctx.prisma = prisma;
        ctx.actor = null;
        if (options.auth !== false) {
          const preload = options.preload?.(ctx);
          let found: Awaited<ReturnType<typeof authenticate>>;
          try {
            found = await authenticate(req, prisma, preload);
          } catch (error) {
            // The read failed, not the credentials (those answer with an ApiError): find out who
            // asked, without it, so the request's log line still names them; then fail as the read.
            if (preload && !(error instanceof ApiError)) actor = (await authenticate(req, prisma).catch(() => null))?.actor ?? null;
            throw error;
          }
          ctx.actor = actor = found.actor;
          ctx.preloaded = found.preloaded;
        }
      }
      response = await run(ctx);
      if (!(response instanceof Response)) throw new TypeError(`${options.route}: the handler returned no Response`);
    } catch (error) {
      response = errorResponse(error, { requestId, origin });
      if (error instanceof ApiError && error.status === 503 && error.cause === undefined) {
        // An answer we chose (e.g. "still starting"), not a failure: no stack to look at.
        logger.warn("service unavailable", { request_id: requestId, detail: error.message });
      } else if (response.status >= 500) {
        // The stack (and the driver error behind a 503) goes to the log only, never to the client.
        logger.error("request failed", { request_id: requestId, error: serializeError(error) });
      }
    }
    response = withStandardHeaders(response, requestId);
    logRequest({
      method: req.method,
      route: options.route,
      path: redactPath(url.pathname),
      status: response.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      request_id: requestId,
      user_id: actor?.kind === "user" ? actor.userId : null,
      api_token_id: actor?.apiTokenId ?? null,
    });
    return response;
  };
}

/** A JSON answer (200 unless `init` says otherwise). */
export function json(body: unknown, init?: ResponseInit): Response {
  return jsonText(JSON.stringify(body), init);
}

/**
 * An answer whose JSON is already written, as text or as its UTF-8 bytes. The body goes to
 * `Response` as bytes: given a string (as `Response.json` does), undici first checks it character
 * by character for lone surrogates, which costs more than the encoding itself on a 100 KB list.
 */
export function jsonText(text: string | Buffer<ArrayBuffer>, init?: ResponseInit): Response {
  const body = bodyOf(typeof text === "string" ? Buffer.from(text, "utf8") : text);
  // Most answers set no header of their own: no Headers object to build and search first.
  if (init?.headers === undefined) return new Response(body, { ...init, headers: JSON_CONTENT_TYPE });
  // A plain record without a Content-Type (an ETag, say): one record, which Response reads once.
  const own = init.headers;
  if (!(own instanceof Headers) && !Array.isArray(own) && !Object.keys(own).some((name) => name.toLowerCase() === "content-type")) {
    return new Response(body, { ...init, headers: { ...JSON_CONTENT_TYPE, ...own } });
  }
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("Content-Type", "application/json");
  return new Response(body, { ...init, headers });
}

const JSON_CONTENT_TYPE = { "Content-Type": "application/json" } as const;

/**
 * `Response` copies bytes it is given (undici takes a copy of a BufferSource body, then wraps it in
 * a byte stream of its own); a stream's chunks it passes on as they are. So an answer's bytes go in
 * a stream of one chunk (not a byte stream, which would take the buffer over): never copied on the
 * way out, and at every size cheaper than the copy (on Node 24, 2.3 against 5.3 µs for 2 KB, 4
 * against 44 µs for 100 KB: bench/results/history.md "A list's 110 KB copied once").
 * A small Buffer is a slice of Node's shared 8 KB pool, so whatever reads this stream must write
 * the chunk as it is (the lane's `res.end`, Next's `res.write`): never transfer it, or read its
 * `.buffer` whole.
 */
function bodyOf(bytes: Buffer<ArrayBuffer>): BodyInit {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/**
 * The export for methods a route does not support, so they answer 405 in the error shape:
 * `export const DELETE = methodNotAllowed(["GET", "PUT"])`.
 */
export function methodNotAllowed(allowed: string[], { route }: { route?: string } = {}): RouteHandler {
  const allow = allowed.join(", ");
  return withApi(
    ({ req }) => {
      throw new ApiError("method_not_allowed", `${req.method} is not supported here; use ${allow}.`, {
        headers: { Allow: allow },
      });
    },
    { route: route ?? "(method not allowed)", auth: false, database: false },
  );
}

async function openDatabase(): Promise<PrismaClient> {
  try {
    return await getPrisma();
  } catch (error) {
    // Whatever stopped the database from opening (unreachable, still starting, migration failed),
    // the service cannot answer yet: a 503 clients retry, with the cause in the log.
    throw new ApiError("database_unavailable", "The database is not available right now. Retry shortly.", {
      headers: { "Retry-After": "5" },
      cause: error,
    });
  }
}

function flattenParams(params: Record<string, string | string[] | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key in params) {
    if (!Object.hasOwn(params, key)) continue;
    const value = params[key];
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join("/") : value;
  }
  return out;
}

function withStandardHeaders(response: Response, requestId: string): Response {
  try {
    response.headers.set("X-Request-Id", requestId);
    response.headers.set("Cache-Control", "no-store");
    return response;
  } catch {
    // Responses from fetch() or Response.redirect() have immutable headers: copy them.
    const copy = new Response(response.body, response);
    copy.headers.set("X-Request-Id", requestId);
    copy.headers.set("Cache-Control", "no-store");
    return copy;
  }
}

const ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof ALL_METHODS)[number];

/**
 * 405 handlers for every method a route does not support, to export alongside its own:
 * `export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);`
 */
export function otherMethods(allowed: Method[], route: string): Record<Method, RouteHandler> {
  const handler = methodNotAllowed(allowed, { route });
  return Object.fromEntries(ALL_METHODS.map((m) => [m, handler])) as Record<Method, RouteHandler>;
}
