import { API_TOKEN_HEADER, authenticateApiRequest, authenticateSessionUser, credentialHeader, type TPreload, type TWriteAhead } from "@/lib/api/auth";
import type { Actor } from "@/lib/domain/actor";
import { ApiError } from "@/lib/api/errors";
import { admitApiRequestAhead, consumeApiRequest, rememberApiToken, takeApiRequestNow, type TAdmission } from "@/lib/api/rate-limit";
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
 * value, or undefined when there was none. `writeAhead` is written in that statement too, for a
 * token the rate limit admits before the statement (`admitAhead`); `written` is what it wrote
 * (null when nothing, or when it was not sent: the route then makes the change itself).
 */
export async function authenticate(
  req: Request,
  prisma: PrismaClient,
  preload?: TPreload,
  writeAhead?: TWriteAhead,
): Promise<{ actor: Actor; preloaded: unknown; written: unknown }> {
  if (credentialHeader(req.headers, API_TOKEN_HEADER) === null) {
    const session = await getSessionUser(req.headers);
    if (session) {
      if (!SAFE_METHODS.has(req.method)) assertSameOrigin(req);
      const found = await authenticateSessionUser(prisma, session.userId, preload);
      if (!found) throw new ApiError("unknown_user_email", "Your account is no longer active.");
      return { ...found, written: null };
    }
  }
  let admission: TAdmission | null = null;
  const admit = (hash: string) => (admission = admitApiRequestAhead(prisma, hash));
  let found: Awaited<ReturnType<typeof authenticateApiRequest>>;
  try {
    found = await authenticateApiRequest(req, prisma, preload, writeAhead && { write: writeAhead, admit });
  } catch (error) {
    // Refused (or the statement failed, which wrote nothing): a refused request counts nothing.
    (admission as TAdmission | null)?.release();
    throw error;
  }
  const apiTokenId = found.actor.apiTokenId!;
  // Counted once: ahead (then only for this token, which the statement checked), or now.
  const counted = found.ahead !== undefined && found.ahead.admitted.apiTokenId === apiTokenId;
  // Counted from this process's lease without waiting when it can (the usual case), else waiting.
  if (!counted && !takeApiRequestNow(prisma, apiTokenId)) await consumeApiRequest(prisma, apiTokenId);
  rememberApiToken(found.tokenHash, apiTokenId);
  return { actor: found.actor, preloaded: found.preloaded, written: counted ? found.ahead!.written : null };
}
