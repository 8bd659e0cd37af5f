import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { logger, serializeError } from "@/lib/logger";
import { firstDuplicateKey, isJsonContentType, readBodyBytes } from "@/lib/api/endpoint";
import { AUTH_BASE_PATH, getAuthForRequest, type TAuth } from "@/lib/auth/server";
import { clearSignInAttempts, consumeSignInAttempt } from "@/lib/auth/sign-in-throttle";
import { getPrisma, type PrismaClient } from "@/lib/db";

const SIGN_IN_PATH = `${AUTH_BASE_PATH}/sign-in/email`;
const GET_SESSION_PATH = `${AUTH_BASE_PATH}/get-session`;
const SIGN_OUT_PATH = `${AUTH_BASE_PATH}/sign-out`;

/**
 * The better-auth endpoints the staff pages use, by path, with their method. Any other path is
 * answered here, before better-auth: its rate limiter stores a row per distinct path (keyed by
 * address and path, so a long random path failed its unique index with a 500, and many paths
 * grew the table at will), and the app offers no other endpoint of it.
 */
const SERVED_AUTH_ENDPOINTS: ReadonlyMap<string, string> = new Map([
  [SIGN_IN_PATH, "POST"],
  [SIGN_OUT_PATH, "POST"],
  [GET_SESSION_PATH, "GET"],
]);

/** Auth bodies are a few hundred bytes; anything much larger is not a sign-in. */
export const MAX_AUTH_BODY_BYTES = 16 * 1024;

/** Text PostgreSQL can store: no U+0000 (the e-mail is looked up; the password never reaches the database, but is held to the same). */
const storable = (max: number) => z.string().max(max).refine((s) => !s.includes("\u0000") && s.isWellFormed());

/** The attributes of a sign-in body, and nothing else (better-auth's own schema for the endpoint). */
const ZSignInBodySchema = z.strictObject({
  email: storable(320),
  password: storable(1024),
  rememberMe: z.boolean().optional(),
  callbackURL: z.string().max(2048).optional(),
});

/** Every request under /api/auth (sign-in, sign-out, session): better-auth, plus the account throttle. */
export async function handleAuthRequest(req: Request): Promise<Response> {
  const path = new URL(req.url).pathname;
  const method = SERVED_AUTH_ENDPOINTS.get(path);
  if (method === undefined) return authError(404, "NOT_FOUND", "No such endpoint.");
  if (req.method !== method && !(req.method === "HEAD" && method === "GET")) {
    const response = authError(405, "METHOD_NOT_ALLOWED", `Use ${method}.`);
    response.headers.set("Allow", method === "GET" ? "GET, HEAD" : method);
    return response;
  }
  try {
    return await handleServedAuthRequest(req, path);
  } catch (error) {
    // better-auth's own failures (its rate limiter's writes run outside its error handling).
    logger.error({ error: serializeError(error) }, "auth: request failed");
    return authError(500, "INTERNAL_SERVER_ERROR", "Something went wrong. Try again shortly.");
  }
}

async function handleServedAuthRequest(req: Request, path: string): Promise<Response> {
  // Read (at most 16 KiB of) the body once, before anything else: better-auth itself would read any size.
  let body: Uint8Array | undefined;
  if (req.method !== "GET" && req.method !== "HEAD") {
    try {
      body = await readBodyBytes(req, MAX_AUTH_BODY_BYTES);
    } catch (error) {
      if (error instanceof ApiError) return authError(error.status, "BODY_TOO_LARGE", "The request body is too large.");
      return authError(400, "INVALID_BODY", "The request body could not be read.");
    }
  }
  let auth: TAuth;
  let prisma: PrismaClient;
  try {
    prisma = await getPrisma();
    auth = await getAuthForRequest(req);
  } catch (error) {
    logger.error({ error: serializeError(error) }, "auth: database unavailable");
    return authError(503, "SERVICE_UNAVAILABLE", "Sign-in is not available right now. Try again shortly.", 5);
  }
  if (req.method === "POST" && path === SIGN_IN_PATH) {
    const parsed = parseSignInBody(req, body ?? new Uint8Array(0));
    if (parsed instanceof Response) return parsed;
    return withoutSessionToken(await signIn(auth, prisma, req, parsed));
  }
  const response = await auth.handler(withBody(req, body));
  return path === GET_SESSION_PATH ? withoutSessionToken(response) : response;
}

type TSignInBody = z.infer<typeof ZSignInBodySchema>;

/**
 * The sign-in body, parsed once: a JSON object with exactly better-auth's attributes, each once.
 * Anything else (a form post, a name given twice, an unknown attribute) is refused before any
 * check, so the account the throttle counts is always the one better-auth signs in.
 */
function parseSignInBody(req: Request, bytes: Uint8Array): TSignInBody | Response {
  if (!isJsonContentType(req.headers.get("content-type"))) {
    return authError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the sign-in as JSON with Content-Type: application/json.");
  }
  let value: unknown;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    value = JSON.parse(text);
    if (firstDuplicateKey(text) !== null) return authError(400, "INVALID_BODY", "An attribute is given more than once.");
  } catch {
    return authError(400, "INVALID_BODY", "The body is not valid JSON.");
  }
  const parsed = ZSignInBodySchema.safeParse(value);
  if (!parsed.success) return authError(400, "INVALID_BODY", "Send exactly an e-mail and a password.");
  return parsed.data;
}

async function signIn(auth: TAuth, prisma: PrismaClient, req: Request, body: TSignInBody): Promise<Response> {
  const email = body.email.trim() ? body.email : null;
  if (email) {
    let decision: Awaited<ReturnType<typeof consumeSignInAttempt>>;
    try {
      decision = await consumeSignInAttempt(prisma, email);
    } catch (error) {
      // Fail closed: no counting, no guessing.
      logger.error({ error: serializeError(error) }, "auth: sign-in throttle unavailable");
      return authError(503, "SERVICE_UNAVAILABLE", "Sign-in is not available right now. Try again shortly.", 5);
    }
    if (!decision.allowed) {
      logger.warn({ retry_after: decision.retryAfterSeconds }, "auth: sign-in attempts for one account exceeded the limit");
      return authError(429, "TOO_MANY_ATTEMPTS", "Too many sign-in attempts. Try again later.", decision.retryAfterSeconds);
    }
  }
  // better-auth gets the very object that was counted, re-encoded.
  const response = await auth.handler(withBody(req, new TextEncoder().encode(JSON.stringify(body))));
  if (email && response.ok) {
    await clearSignInAttempts(prisma, email).catch((error: unknown) => {
      // The user is signed in; a stale count only expires on its own.
      logger.warn({ error: serializeError(error) }, "auth: sign-in throttle not cleared");
    });
  }
  // The outcome without the e-mail: enough to see an attack, nothing to leak.
  logger.info({ status: response.status, ok: response.ok }, "auth: sign-in");
  return response;
}

/** `req` with `body` (already read) as its body. */
function withBody(req: Request, body: Uint8Array | undefined): Request {
  const headers = new Headers(req.headers);
  headers.delete("content-length");
  headers.delete("transfer-encoding");
  return new Request(req.url, { method: req.method, headers, body: body && body.byteLength > 0 ? new Blob([body as Uint8Array<ArrayBuffer>]) : undefined, signal: req.signal });
}

/**
 * better-auth puts the session token in JSON bodies too (`token`, `session.token`); the httpOnly
 * cookie is the only place it belongs, out of reach of page scripts.
 */
async function withoutSessionToken(response: Response): Promise<Response> {
  if (!response.headers.get("content-type")?.includes("application/json")) return response;
  const body: unknown = await response.clone().json().catch(() => undefined);
  if (typeof body !== "object" || body === null) return response;
  const { token: _token, ...rest } = body as { token?: unknown; session?: unknown };
  if (typeof rest.session === "object" && rest.session !== null) {
    const { token: _sessionToken, ...session } = rest.session as { token?: unknown };
    rest.session = session;
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(rest), { status: response.status, statusText: response.statusText, headers });
}

/** better-auth's own error shape (`{ code, message }`), which the sign-in form reads. */
function authError(status: number, code: string, message: string, retryAfterSeconds?: number): Response {
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (retryAfterSeconds !== undefined) {
    headers["Retry-After"] = String(retryAfterSeconds);
    // The header better-auth's own limiter sends; one name for the client to read.
    headers["X-Retry-After"] = String(retryAfterSeconds);
  }
  return Response.json({ code, message }, { status, headers });
}
