import { API_TOKEN_HEADER, authenticateApiRequest, credentialHeader, loadUserActor } from "@/lib/api/auth";
import type { Actor } from "@/lib/domain/actor";
import { ApiError } from "@/lib/api/errors";
import { consumeApiRequest } from "@/lib/api/rate-limit";
import { getSessionUser } from "@/lib/auth/session";
import { assertSameOrigin } from "@/lib/api/web-guards";
import type { PrismaClient } from "@/lib/db";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Who is calling a /v1 route: an external system with the token headers, or our own pages with
 * the staff session cookie. A request that carries a token is always judged by the token; a
 * session alone may read, and may change things only from this app's own pages (CSRF defence:
 * the browser's `Origin` must be this site's). Token requests count against the token's rate limit.
 */
export async function authenticate(req: Request, prisma: PrismaClient): Promise<Actor> {
  if (credentialHeader(req.headers, API_TOKEN_HEADER) === null) {
    const session = await getSessionUser(req.headers);
    if (session) {
      if (!SAFE_METHODS.has(req.method)) assertSameOrigin(req);
      const actor = await loadUserActor(prisma, { id: session.userId }, { via: "session", apiTokenId: null });
      if (!actor) throw new ApiError("unknown_user_email", "Your account is no longer active.");
      return actor;
    }
  }
  const actor = await authenticateApiRequest(req, prisma);
  await consumeApiRequest(prisma, actor.apiTokenId!);
  return actor;
}
