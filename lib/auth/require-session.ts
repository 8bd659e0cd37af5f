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
  return safe && !/^\/sign-in(?:[/?#]|$)/.test(safe) ? safe : "/dashboard";
}

export function signInPath(next?: string): string {
  const safe = safeNextPath(next);
  return safe ? `/sign-in?next=${encodeURIComponent(safe)}` : "/sign-in";
}

/**
 * `next` when it is a path of this site (`/contracts?page=2`), else null: never another origin
 * (`//evil.example`, `/\\evil.example`, `https://…`), so the sign-in page cannot be an open redirect.
 * What is checked is what is returned: the normalised path (`/.//evil.example` normalises to
 * `//evil.example`, which a browser reads as another host) must itself resolve to this origin.
 */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || !isLocalPath(next)) return null;
  let normalised: string;
  try {
    const url = new URL(next, SAME_ORIGIN);
    if (url.origin !== SAME_ORIGIN) return null;
    normalised = `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
  if (!isLocalPath(normalised)) return null;
  return new URL(normalised, SAME_ORIGIN).origin === SAME_ORIGIN ? normalised : null;
}

const SAME_ORIGIN = "http://same.invalid";

/** Starts with exactly one `/`, no backslash (browsers read `\\` as `/`), no control characters. */
function isLocalPath(path: string): boolean {
  // eslint-disable-next-line no-control-regex
  return path.startsWith("/") && !path.startsWith("//") && !path.includes("\\") && !/[\u0000-\u001f\u007f]/.test(path);
}
