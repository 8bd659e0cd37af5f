// A route file's handlers, from the endpoint declarations of lib/schemas/endpoints.ts: the
// declaration says how to parse the path, the query and the body, which headers the endpoint takes
// (If-Match, Idempotency-Key) and whether it needs credentials or the database; the route only
// says what to do with the parsed request.
import type { z } from "zod";
import { json, methodNotAllowed, withApi, type ApiContext, type BareApiContext, type PublicApiContext, type RouteHandler } from "@/lib/api/handler";
import { idempotencyOf, IdempotentReplay, type TIdempotency } from "@/lib/api/idempotency";
import type { TPreload } from "@/lib/api/auth";
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
}

/** The handler of one declared endpoint. */
export function handle<const E extends TEndpoint>(
  endpoint: E,
  run: (ctx: TEndpointContext<E>) => Response | Promise<Response>,
  { preload }: THandleOptions<E> = {},
): TEndpointHandler {
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
