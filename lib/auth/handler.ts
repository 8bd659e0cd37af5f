import { logger, serializeError } from "@/lib/api/logger";
import { AUTH_BASE_PATH, getAuthForRequest, type TAuth } from "@/lib/auth/server";
import { clearSignInAttempts, consumeSignInAttempt } from "@/lib/auth/sign-in-throttle";
import { getPrisma, type PrismaClient } from "@/lib/db";

const SIGN_IN_PATH = `${AUTH_BASE_PATH}/sign-in/email`;
const GET_SESSION_PATH = `${AUTH_BASE_PATH}/get-session`;

/** Every request under /api/auth (sign-in, sign-out, session): better-auth, plus the account throttle. */
export async function handleAuthRequest(req: Request): Promise<Response> {
  let auth: TAuth;
  let prisma: PrismaClient;
  try {
    prisma = await getPrisma();
    auth = await getAuthForRequest(req);
  } catch (error) {
    logger.error("auth: database unavailable", { error: serializeError(error) });
    return authError(503, "SERVICE_UNAVAILABLE", "Sign-in is not available right now. Try again shortly.", 5);
  }
  const path = new URL(req.url).pathname;
  if (req.method === "POST" && path === SIGN_IN_PATH) return withoutSessionToken(await signIn(auth, prisma, req));
  const response = await auth.handler(req);
  return path === GET_SESSION_PATH ? withoutSessionToken(response) : response;
}

async function signIn(auth: TAuth, prisma: PrismaClient, req: Request): Promise<Response> {
  const email = await submittedEmail(req);
  if (email) {
    let decision: Awaited<ReturnType<typeof consumeSignInAttempt>>;
    try {
      decision = await consumeSignInAttempt(prisma, email);
    } catch (error) {
      // Fail closed: no counting, no guessing.
      logger.error("auth: sign-in throttle unavailable", { error: serializeError(error) });
      return authError(503, "SERVICE_UNAVAILABLE", "Sign-in is not available right now. Try again shortly.", 5);
    }
    if (!decision.allowed) {
      logger.warn("auth: sign-in attempts for one account exceeded the limit", { retry_after: decision.retryAfterSeconds });
      return authError(429, "TOO_MANY_ATTEMPTS", "Too many sign-in attempts. Try again later.", decision.retryAfterSeconds);
    }
  }
  const response = await auth.handler(req);
  if (email && response.ok) {
    await clearSignInAttempts(prisma, email).catch((error: unknown) => {
      // The user is signed in; a stale count only expires on its own.
      logger.warn("auth: sign-in throttle not cleared", { error: serializeError(error) });
    });
  }
  // The outcome without the e-mail: enough to see an attack, nothing to leak.
  logger.info("auth: sign-in", { status: response.status, ok: response.ok });
  return response;
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

/** The e-mail of a sign-in body (JSON or a form post), read from a copy so better-auth still gets it. */
async function submittedEmail(req: Request): Promise<string | null> {
  const type = req.headers.get("content-type")?.split(";", 1)[0]?.trim().toLowerCase();
  try {
    if (type === "application/json") {
      const body: unknown = await req.clone().json();
      const email = typeof body === "object" && body !== null ? (body as { email?: unknown }).email : undefined;
      return typeof email === "string" && email.trim() ? email : null;
    }
    if (type === "application/x-www-form-urlencoded") {
      const email = (await req.clone().formData()).get("email");
      return typeof email === "string" && email.trim() ? email : null;
    }
  } catch {
    // Unreadable bodies are better-auth's to reject.
  }
  return null;
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
