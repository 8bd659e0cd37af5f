// A route file's handlers, from the endpoint declarations of lib/schemas/endpoints.ts: the
// declaration says how to parse the path, the query and the body, which headers the endpoint takes
// (If-Match, Idempotency-Key) and whether it needs credentials or the database; the route only
// says what to do with the parsed request.
import type { z } from "zod";
import { json, methodNotAllowed, withApi, type ApiContext, type BareApiContext, type PublicApiContext, type RouteHandler } from "@/lib/api/handler";
import { idempotencyOf, IdempotentReplay, type TIdempotency } from "@/lib/api/idempotency";
import { API_TOKEN_HEADER, credentialHeader, MAX_API_TOKEN_LENGTH, type TPreload, type TWriteAhead } from "@/lib/api/auth";
import { knownApiToken } from "@/lib/api/rate-limit";
import { hashApiToken, MIN_API_TOKEN_LENGTH } from "@/lib/domain/api-token";
import { parsePathParams, parseQuery, readJsonBody } from "@/lib/api/request";
import type { TSelfParsedPathParam } from "@/lib/schemas/common";
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
  /**
   * The change to write in the credentials' statement too (lib/api/auth.ts `TWriteAhead`), from the
   * parsed path and body, or undefined to write nothing ahead. Asked only for a request with an API
   * token this process has already seen authenticate (lib/api/rate-limit.ts `knows`), without
   * `If-Match`, whose body parses (its body is then read before the credentials are checked, and
   * any problem with it answered after them); whatever it wrote reaches the handler as `written`,
   * and the handler does the change itself when that is null, with nothing preloaded (a statement
   * that writes ahead reads no preload). Not for endpoints that take
   * `Idempotency-Key`.
   */
  writeAhead?: (request: { params: TParamsOf<E>; body: TBodyOf<E> }, context: { requestId: string; origin: string }) => TWriteAhead | undefined;
}

/** The handler of one declared endpoint. */
export function handle<const E extends TEndpoint>(
  endpoint: E,
  run: (ctx: TEndpointContext<E>) => Response | Promise<Response>,
  { preload, writeAhead }: THandleOptions<E> = {},
): TEndpointHandler {
  if (writeAhead && (!endpoint.body || endpoint.idempotencyKey)) throw new Error(`${endpoint.id}: a write-ahead needs a body and no Idempotency-Key`);
  // Parsed once (kept in the request's `memo`): by the preload (before authentication) when there
  // is one, else by the handler.
  const parse = (ctx: BareApiContext) => {
    let parsed = ctx.memo.parsed as { params: TParamsOf<E>; query: TQueryOf<E> } | undefined;
    if (!parsed) {
      parsed = {
        params: parsePathParams(ctx.params, endpoint.params) as TParamsOf<E>,
        query: (endpoint.query ? parseQuery(ctx.url, endpoint.query) : undefined) as TQueryOf<E>,
      };
      ctx.memo.parsed = parsed;
    }
    return parsed;
  };
  // Read once (kept in `memo` too): before authentication for a write-ahead, else by the handler;
  // a failure is answered by the handler, after authentication, as without a write-ahead.
  // `parsed` is kept when the write-ahead parsed it, so the schema runs once.
  type TRead = Promise<{ raw: Record<string, unknown>; parsed?: TBodyOf<E> } | { error: unknown }>;
  const readBody = (ctx: BareApiContext) => {
    let read = ctx.memo.body as TRead | undefined;
    if (!read) {
      read = readJsonBody(ctx.req).then(
        (raw): { raw: Record<string, unknown>; parsed?: TBodyOf<E> } => ({ raw }),
        (error: unknown) => ({ error }),
      );
      ctx.memo.body = read;
    }
    return read;
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
    ...(writeAhead
      ? {
          writeAhead: async (ctx: BareApiContext): Promise<TWriteAhead | undefined> => {
            try {
              if (!readsBodyFirst(ctx.req.headers)) return undefined;
              if (endpoint.ifMatch && ctx.req.headers.get("if-match") !== null) return undefined;
              const { params } = parse(ctx);
              const read = await readBody(ctx);
              if ("error" in read) return undefined;
              const body = endpoint.body!.safeParse(read.raw);
              if (!body.success) return undefined;
              read.parsed = body.data as TBodyOf<E>;
              return writeAhead({ params, body: read.parsed }, { requestId: ctx.requestId, origin: ctx.origin });
            } catch {
              // Conflicting token headers, a path that does not parse: answered as without a write-ahead.
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
    if (endpoint.body) {
      const read = await readBody(ctx);
      if ("error" in read) throw read.error;
      rawBody = read.raw;
      body = "parsed" in read ? read.parsed : (endpoint.body.parse(rawBody) as TBodyOf<E>);
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

/**
 * Whether a request's body may be read before its credentials are checked, for a write-ahead: only
 * when it carries an API token this process has already seen authenticate (its hash remembered by
 * the rate limiter), so a stranger's body is never parsed before the 401.
 */
export function readsBodyFirst(headers: Headers): boolean {
  const token = credentialHeader(headers, API_TOKEN_HEADER);
  if (token === null || token.length < MIN_API_TOKEN_LENGTH || token.length > MAX_API_TOKEN_LENGTH) return false;
  // Hashed again by the authentication (1 µs): cheaper than keeping the hash per request.
  return knownApiToken(hashApiToken(token));
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
