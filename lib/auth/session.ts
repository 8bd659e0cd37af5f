// Who a staff web-app request is signed in as. Free of next/* so the /v1 wrapper, services and
// tests can call it with any request's headers.
import { AUTH_COOKIE_PREFIX, getAuth, isSecureRequest, type TAuth } from "@/lib/auth/server";

export interface TSessionUser {
  userId: number;
  sessionId: number;
  name: string;
  email: string;
  isAdmin: boolean;
}

const SESSION_COOKIE = `${AUTH_COOKIE_PREFIX}.session_token=`;

/**
 * The active user whose live session cookie `headers` carry, or null (no cookie, unknown, expired
 * or signed-out session, inactive user). Requests without the cookie never touch the database.
 */
export async function getSessionUser(headers: Headers): Promise<TSessionUser | null> {
  if (!headers.get("cookie")?.includes(SESSION_COOKIE)) return null;
  const auth = await getAuth(isSecureRequest(headers));
  return readSessionUser(auth, headers);
}

/** `getSessionUser` on a given better-auth instance. */
export async function readSessionUser(auth: TAuth, headers: Headers): Promise<TSessionUser | null> {
  let result: Awaited<ReturnType<TAuth["api"]["getSession"]>>;
  try {
    // Read-only: the session's expiry is extended by /api/auth/get-session, whose answer can also
    // renew the cookie (the app shell calls it once per page load).
    result = await auth.api.getSession({ headers, query: { disableRefresh: true } });
  } catch (error) {
    // better-auth wraps a database failure in its own 500; hand on the driver's error so callers
    // can tell "database away" (503) from a bug.
    throw error instanceof Error && error.cause !== undefined ? error.cause : error;
  }
  if (!result || result.user.active === false) return null;
  return {
    userId: Number(result.user.id),
    sessionId: Number(result.session.id),
    name: result.user.name,
    email: result.user.email,
    isAdmin: result.user.isAdmin === true,
  };
}
