import { API_TOKEN_HEADER, authenticateApiRequest, authenticateSessionUser, credentialHeader, type TPreload } from "@/lib/api/auth";
import type { Actor } from "@/lib/domain/actor";
import { ApiError } from "@/lib/api/errors";
import { consumeApiRequest, takeApiRequestNow } from "@/lib/api/rate-limit";
import { getSessionUser } from "@/lib/auth/session";
import { assertSameOrigin } from "@/lib/api/web-guards";
import type { PrismaClient } from "@/lib/db";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Who is calling a /v1 route: an external system with the token headers, or our own pages with
 * the staff session cookie. A request that carries a token is always judged by the token; a
 * session alone may read, and may change things only from this app's own pages (CSRF defence:
 * the browser's `Origin` must be this site's). Token requests count against the token's rate limit.
 *
 * `preload` is read in the same statement as the credentials (lib/api/auth.ts): `preloaded` is its
 * value, or undefined when there was none.
 */
export async function authenticate(req: Request, prisma: PrismaClient, preload?: TPreload): Promise<{ actor: Actor; preloaded: unknown }> {
  if (credentialHeader(req.headers, API_TOKEN_HEADER) === null) {
    const session = await getSessionUser(req.headers);
    if (session) {
      if (!SAFE_METHODS.has(req.method)) assertSameOrigin(req);
      const found = await authenticateSessionUser(prisma, session.userId, preload);
      if (!found) throw new ApiError("unknown_user_email", "Your account is no longer active.");
      return found;
    }
  }
  // A refused request counts nothing: counted only once the token is known good.
  const found = await authenticateApiRequest(req, prisma, preload);
  const apiTokenId = found.actor.apiTokenId!;
  // Counted from this process's lease without waiting when it can (the usual case), else waiting.
  if (!takeApiRequestNow(prisma, apiTokenId)) await consumeApiRequest(prisma, apiTokenId);
  return found;
}
