// Staff sign-in (better-auth): e-mail + password, sessions in our own `sessions` table, cookies
// scoped to whatever origin the app is served from. Created lazily, after the database is open,
// never at import or during `next build`.
import { randomBytes } from "node:crypto";
import { prismaAdapter } from "@better-auth/prisma-adapter";
import { APIError } from "better-auth/api";
import { betterAuth } from "better-auth/minimal";
import { logger, serializeError } from "@/lib/logger";
import { withHashedSessionTokens } from "@/lib/auth/hashed-session-tokens";
import { appOrigins } from "@/lib/http/origin";
import { getPrisma, type PrismaClient } from "@/lib/db";
import { env } from "@/lib/env";

export const AUTH_BASE_PATH = "/api/auth";
/** Cookies are `contracts-admin.session_token` (`__Secure-` prefixed over https). */
export const AUTH_COOKIE_PREFIX = "contracts-admin";
/** The `app_settings` row holding the generated secret when AUTH_SECRET is unset. */
export const AUTH_SECRET_SETTING = "auth_secret";

const DAY = 24 * 60 * 60;
/**
 * Sign-in attempts per client IP (better-auth's limiter, counted in the `rate_limits` table so all
 * instances share it). Per-account failures have their own, stricter limit (sign-in-throttle.ts).
 */
export const SIGN_IN_IP_LIMIT = { window: 60, max: 20 } as const;

// Endpoints the staff app does not use. Users are managed by admins (no self-service profile,
// e-mail or account changes) and there is no e-mail delivery (no reset or verification links).
const DISABLED_PATHS = [
  "/sign-up/email",
  "/sign-in/social",
  "/update-user",
  "/change-email",
  "/delete-user",
  "/delete-user/callback",
  "/request-password-reset",
  "/reset-password",
  "/send-verification-email",
  "/verify-email",
  "/link-social",
  "/unlink-account",
  "/list-accounts",
  "/account-info",
  "/get-access-token",
  "/refresh-token",
  "/update-session",
  // Session lists and revocation by token would hand session tokens to page scripts.
  "/list-sessions",
  "/revoke-session",
  "/revoke-sessions",
  "/revoke-other-sessions",
];

export interface CreateAuthOptions {
  prisma: PrismaClient;
  secret: string;
  /** Cookies get `Secure` and the `__Secure-` prefix: the request came over https. */
  secure: boolean;
}

export function createAuth({ prisma, secret, secure }: CreateAuthOptions) {
  // Asked without a request, better-auth trusts PUBLIC_URL's origin alone (or none).
  const withoutRequest = env().PUBLIC_URL ? [new URL(env().PUBLIC_URL!).origin] : [];
  return betterAuth({
    appName: "Contracts admin",
    basePath: AUTH_BASE_PATH,
    // No baseURL: better-auth then derives it per request (from request.url). Next builds that URL
    // from the address the server listens on, not from Host, so the origin a browser actually
    // used is trusted explicitly below.
    secret,
    // Session tokens are stored hashed (hashed-session-tokens.ts).
    database: prismaAdapter(withHashedSessionTokens(prisma), { provider: "postgresql" }),
    emailAndPassword: { enabled: true, disableSignUp: true },
    user: {
      additionalFields: {
        isAdmin: { type: "boolean", required: false, input: false, defaultValue: false },
        active: { type: "boolean", required: false, input: false, defaultValue: true },
      },
    },
    session: { expiresIn: 7 * DAY, updateAge: DAY },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      customRules: { "/sign-in/email": { ...SIGN_IN_IP_LIMIT } },
    },
    // CSRF: a cookie-carrying POST must come from one of this app's own origins (`appOrigins`: the
    // request's own as Host / X-Forwarded-* describe it, and PUBLIC_URL's), as /v1 changes must.
    trustedOrigins: (request) => (request ? appOrigins(request, env().PUBLIC_URL) : withoutRequest),
    advanced: {
      useSecureCookies: secure,
      cookiePrefix: AUTH_COOKIE_PREFIX,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", path: "/" },
      database: { generateId: "serial" },
    },
    databaseHooks: {
      session: {
        create: {
          // Inactive users cannot start a session (their existing ones are refused by
          // getSessionUser). Reached only after the password was verified, so the refusal is the
          // very answer a wrong password gets: anything else would confirm the password.
          before: async (session) => {
            const user = await prisma.user.findUnique({ where: { id: Number(session.userId) }, select: { active: true } });
            if (!user?.active) {
              throw new APIError("UNAUTHORIZED", { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
            }
          },
        },
      },
    },
    disabledPaths: DISABLED_PATHS,
    telemetry: { enabled: false },
    logger: {
      // Its warnings are per failed sign-in ("Invalid password"), which handler.ts logs with the
      // outcome instead, and the unset baseURL, which is deliberate (see above).
      level: "error",
      log: (level, message, ...args) => {
        const details = args.map((a) => (a instanceof Error ? serializeError(a) : a));
        logger[level](details.length ? { details } : {}, `auth: ${message}`);
      },
    },
  });
}

export type TAuth = ReturnType<typeof createAuth>;

/** AUTH_SECRET, else the one generated on first use and kept in the database for every instance. */
export async function loadAuthSecret(prisma: PrismaClient): Promise<string> {
  const fromEnv = env().AUTH_SECRET;
  if (fromEnv) return fromEnv;
  // Insert-if-absent, then read: instances starting together all end up with the first one's value.
  await prisma.appSetting.createMany({
    data: [{ key: AUTH_SECRET_SETTING, value: randomBytes(32).toString("base64url") }],
    skipDuplicates: true,
  });
  const row = await prisma.appSetting.findUniqueOrThrow({ where: { key: AUTH_SECRET_SETTING } });
  return row.value;
}

// One instance per cookie flavour (Secure or not), per process; kept on globalThis so dev reloads
// reuse them.
const g = globalThis as { __contractsAuth?: Map<boolean, Promise<TAuth>> };
const instances = (g.__contractsAuth ??= new Map());

export function getAuth(secure: boolean): Promise<TAuth> {
  let auth = instances.get(secure);
  if (!auth) {
    auth = (async () => {
      const prisma = await getPrisma();
      return createAuth({ prisma, secret: await loadAuthSecret(prisma), secure });
    })();
    instances.set(secure, auth);
    // A failed start (database away) is retried by the next request.
    auth.catch(() => instances.delete(secure));
  }
  return auth;
}

/**
 * Whether the client reached us over https: PUBLIC_URL says so, or the proxy in front
 * (`X-Forwarded-Proto`, which Next also sets from the connection itself), or the URL.
 * Plain http (tests on 127.0.0.1, a local dev server) gets cookies without `Secure`, which
 * browsers would otherwise drop.
 */
export function isSecureRequest(headers: Headers, url?: string): boolean {
  const publicUrl = env().PUBLIC_URL;
  if (publicUrl && new URL(publicUrl).protocol === "https:") return true;
  const proto = headers.get("x-forwarded-proto")?.split(",", 1)[0]?.trim().toLowerCase();
  if (proto) return proto === "https";
  return url ? new URL(url).protocol === "https:" : false;
}

export function getAuthForRequest(req: Request): Promise<TAuth> {
  return getAuth(isSecureRequest(req.headers, req.url));
}
