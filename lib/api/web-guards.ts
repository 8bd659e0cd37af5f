// Checks for the web app's own routes outside /v1 (e.g. /api/tokens): they answer to a signed-in
// session only, never to an API token, and changes must come from this app's own pages
// (`assertSameOrigin`, lib/api/auth.ts).
import { loadUserActor } from "@/lib/api/auth";
import { ApiError } from "@/lib/api/errors";
import { getSessionUser, type TSessionUser } from "@/lib/auth/session";
import type { PrismaClient } from "@/lib/db";
import type { TUserActor } from "@/lib/domain/actor";

/** The signed-in user (401 without a session). */
export async function requireSession(req: Request): Promise<TSessionUser> {
  const user = await getSessionUser(req.headers);
  if (!user) throw new ApiError("unauthorized", "Sign in to the web app first.");
  return user;
}

/** The signed-in user as the actor of a change to their own things (401 without a session, or once deactivated). */
export async function requireUserActor(req: Request, prisma: PrismaClient): Promise<TUserActor> {
  const user = await requireSession(req);
  const actor = await loadUserActor(prisma, { id: user.userId }, { via: "session", apiTokenId: null });
  if (!actor) throw new ApiError("unauthorized", "Sign in to the web app first.");
  return actor;
}

/** The signed-in admin (401 without a session, 403 for other users). */
export async function requireAdminSession(req: Request): Promise<TSessionUser> {
  const user = await requireSession(req);
  if (!user.isAdmin) throw new ApiError("admin_only", "Only administrators may do this.");
  return user;
}

/** The signed-in admin as the actor of a change (401 without a session, 403 for other users). */
export async function requireAdminActor(req: Request, prisma: PrismaClient): Promise<TUserActor> {
  const admin = await requireAdminSession(req);
  const actor = await loadUserActor(prisma, { id: admin.userId }, { via: "session", apiTokenId: null });
  // Deactivated between the two reads: as if signed out.
  if (!actor) throw new ApiError("unauthorized", "Sign in to the web app first.");
  return actor;
}
