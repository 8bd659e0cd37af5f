import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getSessionUser, type TSessionUser } from "@/lib/auth/session";

/** One lookup per server render, however many layouts and pages ask. */
export const getCurrentSessionUser = cache(async (): Promise<TSessionUser | null> => getSessionUser(await headers()));

/**
 * For server components: the signed-in user, or a redirect to the sign-in page, which returns
 * to `next` (a path of this app) afterwards. Layouts do not know the path being rendered; an
 * `x-pathname` request header (which a proxy could set) stands in for `next` when given.
 */
export async function requireSessionUser(options: { next?: string } = {}): Promise<TSessionUser> {
  const user = await getCurrentSessionUser();
  if (!user) redirect(signInPath(options.next ?? (await headers()).get("x-pathname") ?? undefined));
  return user;
}

/** Where the sign-in page sends a user: `next` when safe (and not the sign-in page itself), else the contracts. */
export function afterSignInPath(next: string | null | undefined): string {
  const safe = safeNextPath(next);
  return safe && !/^\/sign-in(?:[/?#]|$)/.test(safe) ? safe : "/contracts";
}

export function signInPath(next?: string): string {
  const safe = safeNextPath(next);
  return safe ? `/sign-in?next=${encodeURIComponent(safe)}` : "/sign-in";
}

/**
 * `next` when it is a path of this site (`/contracts?page=2`), else null: never another origin
 * (`//evil.example`, `/\evil.example`, `https://…`), so the sign-in page cannot be an open redirect.
 */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.includes("\\")) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(next)) return null;
  try {
    const base = "http://same.invalid";
    const url = new URL(next, base);
    if (url.origin !== base) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}
