// The one wrapper of every /v1 route handler (and of the session-only /api routes): a route file's
// handlers from the endpoint declarations of lib/schemas/endpoints.ts (the declaration says how to
// parse the path, the query and the body, which headers the endpoint takes (If-Match,
// Idempotency-Key) and whether it needs credentials or the database; the route only says what to do
// with the parsed request); around each: request id, database, authentication, the one error
// mapping, standard headers and one log line; and the one bounded body reader.
import type { z } from "zod";
import { randomUUID } from "node:crypto";
import { incomingRequestId, MAX_BODY_BYTES, redactPath } from "@/lib/http/front-door";
import { requestOrigin } from "@/lib/http/origin";
import { json } from "@/lib/api/response";
import { env } from "@/lib/env";
import type { Actor } from "@/lib/domain/actor";
import { authenticate, type TPreload } from "@/lib/api/auth";
import { consumeApiRequest, takeApiRequestNow } from "@/lib/api/rate-limit";
import { ApiError, errorResponse, fromZodError } from "@/lib/api/errors";
import { idempotencyOf, IdempotentReplay, type TIdempotency } from "@/lib/api/idempotency";
import { logger, serializeError, type TRequestLogFields } from "@/lib/logger";
import { getPrisma, readyPrisma, type PrismaClient } from "@/lib/db";
import { isSelfParsedPathParam, type TSelfParsedPathParam } from "@/lib/schemas/common";
import type { TEndpoint, THttpMethod } from "@/lib/schemas/endpoints";

/** Ids are numbers; a parameter its schema parses itself (`selfParsedPathParam`) is that schema's output. */
type TParamsOf<E extends TEndpoint> = E["params"] extends z.ZodObject
  ? { [K in keyof E["params"]["shape"]]: E["params"]["shape"][K] extends TSelfParsedPathParam ? z.output<E["params"]["shape"][K]> : number }
  : Record<string, never>;
type TQueryOf<E extends TEndpoint> = E["query"] extends z.ZodObject ? z.output<E["query"]> : undefined;
type TBodyOf<E extends TEndpoint> = E["body"] extends z.ZodType ? z.output<E["body"]> : undefined;
type TContextOf<E extends TEndpoint> = E["database"] extends false ? BareApiContext : E["auth"] extends false ? PublicApiContext : ApiContext;

export type TEndpointContext<E extends TEndpoint> = Omit<TContextOf<E>, "params" | "memo"> & {
  /** Path parameters: each a positive int32, or what its self-parsed schema made of it (else the request was a 400 already). */
  params: TParamsOf<E>;
  query: TQueryOf<E>;
  body: TBodyOf<E>;
  /** The body as sent (before the schema), for what must see exactly that (idempotency). */
  rawBody: E["body"] extends z.ZodType ? Record<string, unknown> : undefined;
  /** `If-Match`, when the endpoint takes it. */
  ifMatch: E["ifMatch"] extends true ? string | null : undefined;
  /** The request's idempotency claim, when the endpoint takes `Idempotency-Key` and one was sent. */
  idempotency: E["idempotencyKey"] extends true ? TIdempotency | null : undefined;
};

export interface TEndpointHandler {
  endpoint: TEndpoint;
  handler: RouteHandler;
}

export interface THandleOptions<E extends TEndpoint> {
  /**
   * Rows to read in the same statement as the caller's credentials (one round trip; lib/api/auth.ts
   * `TPreload`), from the parsed path and query. The handler gets them as `preloaded`.
   */
  preload?: (request: { params: TParamsOf<E>; query: TQueryOf<E> }, context: { origin: string }) => TPreload;
}

/** The handler of one declared endpoint. */
export function handle<const E extends TEndpoint>(
  endpoint: E,
  run: (ctx: TEndpointContext<E>) => Response | Promise<Response>,
  { preload }: THandleOptions<E> = {},
): TEndpointHandler {
  const parsePath = pathParamsParser(endpoint.params);
  // Parsed once (kept in the request's `memo`): by the preload (before authentication) when there
  // is one, else by the handler.
  const parse = (ctx: BareApiContext) => {
    let parsed = ctx.memo.parsed as { params: TParamsOf<E>; query: TQueryOf<E> } | undefined;
    if (!parsed) {
      parsed = {
        params: parsePath(ctx.params) as TParamsOf<E>,
        query: (endpoint.query ? parseQuery(ctx.url, endpoint.query) : undefined) as TQueryOf<E>,
      };
      ctx.memo.parsed = parsed;
    }
    return parsed;
  };
  const options = {
    route: endpoint.path,
    ...(endpoint.auth === false ? { auth: false as const } : {}),
    ...(endpoint.database === false ? { database: false as const } : {}),
    // A path or query that does not parse preloads nothing: the handler answers its 400, after
    // authentication, as without a preload.
    ...(preload
      ? {
          preload: (ctx: BareApiContext) => {
            try {
              return preload(parse(ctx), { origin: ctx.origin });
            } catch {
              return undefined;
            }
          },
        }
      : {}),
  };
  const handler = withApi(async (ctx: BareApiContext & Partial<ApiContext>) => {
    const { params, query } = parse(ctx);
    let rawBody: Record<string, unknown> | undefined;
    let body: TBodyOf<E> | undefined;
    if (endpoint.body && !endpoint.multipart) {
      rawBody = await readJsonBody(ctx.req);
      body = endpoint.body.parse(rawBody) as TBodyOf<E>;
    }
    const ifMatch = endpoint.ifMatch ? ctx.req.headers.get("if-match") : undefined;
    const idempotency = endpoint.idempotencyKey && ctx.actor ? idempotencyOf(ctx.req, ctx.actor, rawBody) : undefined;
    try {
      return await run({ ...ctx, params, query, body, rawBody, ifMatch, idempotency } as unknown as TEndpointContext<E>);
    } catch (error) {
      // The first answer to this Idempotency-Key, found while claiming it: answer it again.
      if (error instanceof IdempotentReplay) return json(error.body, { status: error.status, headers: { "Idempotent-Replayed": "true" } });
      throw error;
    }
  }, options as { route: string; auth: false; database: false });
  return { endpoint, handler };
}

const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type TRouteMethod = (typeof ROUTE_METHODS)[number];

/**
 * The exports of a route file: each declared endpoint's handler under its method, and a 405 in the
 * error shape (with `Allow`) for every other method.
 * `export const { GET, PUT, POST, PATCH, DELETE } = endpointRoute(handle(…), handle(…));`
 */
export function endpointRoute(...handlers: TEndpointHandler[]): Record<TRouteMethod, RouteHandler> {
  const path = handlers[0]?.endpoint.path;
  if (!path || handlers.some((h) => h.endpoint.path !== path)) throw new Error("endpointRoute: one path per route file");
  const byMethod = new Map<THttpMethod, RouteHandler>(handlers.map((h) => [h.endpoint.method, h.handler]));
  const notAllowed = methodNotAllowed(
    ROUTE_METHODS.filter((m) => byMethod.has(m as THttpMethod)),
    { route: path },
  );
  return Object.fromEntries(ROUTE_METHODS.map((m) => [m, byMethod.get(m as THttpMethod) ?? notAllowed])) as Record<TRouteMethod, RouteHandler>;
}

// ——— The wrapper around every handler ———

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
    // The log line's path, with the request id: the front door's two rules, looked up once, at the start.
    const path = redactPath(url.pathname);
    let actor: Actor | null = null;
    let origin = url.origin;
    let response: Response;
    try {
      origin = requestOrigin(req, env().PUBLIC_URL, url);
      const params = flattenParams(await routeCtx?.params);
      const ctx: TContext = { req, url, params, requestId, origin, memo: {} };
      if (options.database !== false) {
        // Open: no promise to wait for (the usual case).
        const prisma = readyPrisma() ?? (await openDatabase());
        ctx.prisma = prisma;
        ctx.actor = null;
        if (options.auth !== false) {
          const preload = options.preload?.(ctx);
          let found: Awaited<ReturnType<typeof admit>>;
          try {
            found = await admit(req, prisma, preload);
          } catch (error) {
            // The read failed, not the credentials (those answer with an ApiError): find out who
            // asked, without it, so the request's log line still names them; then fail as the read.
            if (preload && !(error instanceof ApiError)) actor = (await admit(req, prisma).catch(() => null))?.actor ?? null;
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
        logger.warn({ request_id: requestId, detail: error.message }, "service unavailable");
      } else if (response.status >= 500) {
        // The stack (and the driver error behind a 503) goes to the log only, never to the client.
        logger.error({ request_id: requestId, error: serializeError(error) }, "request failed");
      }
    }
    response = withStandardHeaders(response, requestId);
    // pino's own call: no function of lib/logger.ts runs for the request's line.
    logger.info(
      {
        method: req.method,
        route: options.route,
        path,
        status: response.status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        request_id: requestId,
        user_id: actor?.kind === "user" ? actor.userId : null,
        api_token_id: actor?.apiTokenId ?? null,
      } satisfies TRequestLogFields,
      "request",
    );
    return response;
  };
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

/**
 * Who calls, and may they call now: the credentials (lib/api/auth.ts), then a token's share of its
 * rate limit (lib/api/rate-limit.ts). Counted only once the token is known good, so a refused
 * request counts nothing; a staff session's request (no token) is not counted.
 */
async function admit(req: Request, prisma: PrismaClient, preload?: TPreload): Promise<{ actor: Actor; preloaded: unknown }> {
  const found = await authenticate(req, prisma, preload);
  const apiTokenId = found.actor.apiTokenId;
  // Counted from this process's lease without waiting when it can (the usual case), else waiting.
  if (apiTokenId !== null && !takeApiRequestNow(prisma, apiTokenId)) await consumeApiRequest(prisma, apiTokenId);
  return found;
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

/**
 * 405 handlers for every method a route does not support, to export alongside its own:
 * `export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);`
 */
export function otherMethods(allowed: TRouteMethod[], route: string): Record<TRouteMethod, RouteHandler> {
  const handler = methodNotAllowed(allowed, { route });
  return Object.fromEntries(ROUTE_METHODS.map((m) => [m, handler])) as Record<TRouteMethod, RouteHandler>;
}

// ——— The request: body, path and query ———

export const MAX_JSON_DEPTH = 32;
/** The most attributes one object of a request body may have (no request object has more than a few dozen). */
export const MAX_OBJECT_MEMBERS = 1000;

/** One decoder for every body: `decode` without `stream` keeps no state between calls. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body of a write request as a JSON object, or the 4xx that explains why not. Checks happen
 * before anything is parsed: media type (415), size (413), nesting depth (400), then JSON (400).
 */
export async function readJsonBody(
  req: Request,
  { maxBytes = MAX_BODY_BYTES, maxDepth = MAX_JSON_DEPTH }: { maxBytes?: number; maxDepth?: number } = {},
): Promise<Record<string, unknown>> {
  if (!isJsonContentType(req.headers.get("content-type"))) {
    throw new ApiError("content_type_not_json", "Send the body as JSON with Content-Type: application/json.");
  }
  const bytes = await readBodyBytes(req, maxBytes);

  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new ApiError("malformed_json", "The body is not valid UTF-8.");
  }
  if (text.trim() === "") throw new ApiError("malformed_json", "The body is empty; send a JSON object.");

  // Before JSON.parse: a deep body must not cost a deep object graph (or the stack of whoever walks it).
  if (jsonNestingDepth(text, maxDepth) > maxDepth) {
    throw new ApiError("json_too_deep", `The body nests objects and arrays more than ${maxDepth} levels deep.`);
  }

  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // V8's message names the position ("Unexpected token } in JSON at position 12"): useful, not internal.
    const reason = error instanceof SyntaxError ? `: ${error.message}` : "";
    throw new ApiError("malformed_json", `The body is not valid JSON${reason}.`);
  }
  // PostgreSQL text cannot hold U+0000, and a lone surrogate is not Unicode: refuse both here,
  // once, instead of letting them reach (and fail in) the database. (A walk after parsing, not a
  // reviver: V8 parses with a reviver several times slower.) The depth was bounded above.
  const { badText, tooWide } = inspectValues(value);
  if (tooWide) {
    throw new ApiError("validation_failed", `An object in the body has more than ${MAX_OBJECT_MEMBERS} attributes.`);
  }
  if (badText) {
    throw new ApiError("validation_failed", "Text values must be valid Unicode without NUL (\\u0000) characters.");
  }
  // JSON.parse keeps the last of two equal names; which one a client meant is guesswork, and a
  // reader that took the first would see another body than the one acted on.
  const duplicate = firstDuplicateKey(text);
  if (duplicate !== null) {
    throw new ApiError("validation_failed", `"${duplicate}" is given more than once in one object.`, {
      parameterProblems: { [duplicate]: ["must be given at most once"] },
    });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const what = Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
    throw new ApiError("body_not_object", `The body must be a JSON object, not ${what}.`);
  }
  return value as Record<string, unknown>;
}

/**
 * Whether any string value in a parsed body holds U+0000 or a lone surrogate (`badText`), and
 * whether any object has more than MAX_OBJECT_MEMBERS attributes (`tooWide`). Keys are not values:
 * as JSON.parse's reviver saw it, only values are checked.
 */
function inspectValues(root: unknown): { badText: boolean; tooWide: boolean } {
  let badText = false;
  let tooWide = false;
  const visit = (v: unknown): void => {
    if (typeof v === "string") {
      if (v.includes("\u0000") || !v.isWellFormed()) badText = true;
    } else if (Array.isArray(v)) {
      for (const item of v) visit(item);
    } else if (typeof v === "object" && v !== null) {
      const keys = Object.keys(v);
      if (keys.length > MAX_OBJECT_MEMBERS) tooWide = true;
      for (const key of keys) visit((v as Record<string, unknown>)[key]);
    }
  };
  visit(root);
  return { badText, tooWide };
}

/** `application/json`, with any parameters (`; charset=utf-8`), in any case. */
export function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  const mediaType = header.split(";", 1)[0]?.trim().toLowerCase();
  return mediaType === "application/json";
}

/**
 * THE body reader: the bytes of `req`'s body, or a 413 `ApiError` once they pass `maxBytes`, by the
 * declared Content-Length before a byte is read and by counting while the body streams in (for
 * clients that send none, or lie). Every route that reads a body reads it through this.
 */
export async function readBodyBytes(req: Request, maxBytes: number = MAX_BODY_BYTES): Promise<Uint8Array> {
  const tooLarge = () => new ApiError("body_too_large", `The body is larger than ${maxBytes} bytes.`);
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  return readAtMost(req, maxBytes, tooLarge);
}

/** Reads the body stream, giving up (and cancelling the upload) as soon as it passes `maxBytes`. */
async function readAtMost(req: Request, maxBytes: number, tooLarge: () => ApiError): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * The deepest nesting of `[`/`{` in JSON text, counted in one pass without recursion; stops counting
 * once past `limit`. Brackets inside strings do not count. Malformed text is left to JSON.parse.
 */
export function jsonNestingDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++; // skip the escaped character
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return max;
}

/**
 * The first name that occurs twice in one object of well-formed JSON `text` (names compared after
 * unescaping, so `"a"` and `"\\u0061"` are the same), else null. One pass, no recursion.
 */
export function firstDuplicateKey(text: string): string | null {
  const objects: (Set<string> | null)[] = []; // null: an array
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let end = i + 1;
      while (end < text.length && text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c ? 2 : 1;
      const names = objects[objects.length - 1];
      if (expectName && names) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (names.has(name)) return name;
        names.add(name);
        expectName = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      objects.push(new Set());
      expectName = true;
    } else if (c === 0x5b /* [ */) {
      objects.push(null);
      expectName = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      objects.pop();
      expectName = false;
    } else if (c === 0x2c /* , */) {
      expectName = objects[objects.length - 1] instanceof Set;
    }
  }
  return null;
}

const INT32_MAX = 2_147_483_647;

/**
 * A path id: a positive integer in Postgres `integer` range, written canonically (no sign, leading
 * zeros, exponent or fraction), so one resource has one URL. Anything else is a 400, never a query.
 */
export function parseIdParam(raw: string | undefined, name: string): number {
  const value = raw !== undefined && /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(value <= INT32_MAX)) {
    const message = `must be a positive integer no greater than ${INT32_MAX}`;
    throw new ApiError("invalid_path_id", `${name} ${message}.`, { parameterProblems: { [name]: [message] } });
  }
  return value;
}

const NUL_PROBLEM = "must not contain the NUL character (%00)";

/** PostgreSQL's text cannot hold U+0000: a path or query parameter with one is refused, as in JSON bodies. */
function refuseNul(value: string | undefined, name: string, error: "invalid_path_id" | "invalid_query_parameter"): void {
  if (value?.includes("\u0000")) throw new ApiError(error, `${name}: ${NUL_PROBLEM}.`, { parameterProblems: { [name]: [NUL_PROBLEM] } });
}

/**
 * The parser of the path parameters an endpoint declares (lib/schemas/endpoints.ts), made once per
 * endpoint: each is a canonical id (`parseIdParam`), unless its schema is marked
 * `selfParsedPathParam`; then that schema parses it, and a value it refuses is the same 400
 * `invalid_path_id`, naming the parameter.
 */
function pathParamsParser(schema: z.ZodObject | undefined): (raw: Readonly<Record<string, string | undefined>>) => Record<string, unknown> {
  // Which rule each parameter takes is decided here, at the declaration, not per request.
  const fields = Object.entries(schema?.shape ?? {}).map(([name, field]) => [name, isSelfParsedPathParam(field) ? field : null] as const);
  return (raw) => {
    const params: Record<string, unknown> = {};
    for (const [name, field] of fields) {
      if (field === null) {
        params[name] = parseIdParam(raw[name], name);
        continue;
      }
      refuseNul(raw[name], name, "invalid_path_id");
      const parsed = field.safeParse(raw[name]);
      if (!parsed.success) {
        const messages = [...new Set(parsed.error.issues.map((issue) => issue.message))];
        throw new ApiError("invalid_path_id", `${name} ${messages[0]}.`, { parameterProblems: { [name]: messages } });
      }
      params[name] = parsed.data;
    }
    return params;
  };
}

/**
 * Query parameters through a zod schema. Each parameter may appear once (which of two values would
 * win is guesswork); parameters the schema does not know are ignored, as web APIs usually do.
 */
export function parseQuery<T extends z.ZodType>(url: URL, schema: T): z.output<T> {
  const known = knownKeys(schema);
  // A Map, not an object: a parameter named `__proto__` or `toString` is just a name.
  const values = new Map<string, string>();
  let repeated: Set<string> | undefined;
  for (const [key, value] of url.searchParams) {
    if (known && !known.has(key)) continue;
    refuseNul(value, key, "invalid_query_parameter");
    if (values.has(key)) (repeated ??= new Set()).add(key);
    else values.set(key, value);
  }
  if (repeated) {
    const problems = Object.fromEntries([...repeated].map((key) => [key, ["must be given at most once"]]));
    throw new ApiError("invalid_query_parameter", `${[...repeated][0]}: must be given at most once.`, {
      parameterProblems: problems,
    });
  }
  const parsed = schema.safeParse(Object.fromEntries(values));
  if (!parsed.success) throw fromZodError(parsed.error, "invalid_query_parameter");
  return parsed.data;
}

/** Each schema's keys, found once (a schema is a module constant; every request asks again). */
const keysOf = new WeakMap<z.ZodType, Set<string> | undefined>();

/** The keys of an object schema; undefined for other schemas (then every parameter is checked). */
function knownKeys(schema: z.ZodType): Set<string> | undefined {
  if (keysOf.has(schema)) return keysOf.get(schema);
  const shape = (schema as { shape?: unknown }).shape;
  const keys = shape && typeof shape === "object" ? new Set(Object.keys(shape)) : undefined;
  keysOf.set(schema, keys);
  return keys;
}
