import { z } from "zod";
import { parseTrustedProxies } from "./http/front-door.ts";

// Every environment variable the app and its HTTP server (server.mjs) read, validated once; a bad
// value stops the process with a message naming it. server.mjs loads this file outside the Next
// build (Node's type stripping): relative imports with `.ts` only.
const ZEnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** The port server.mjs listens on (`-p` overrides it). */
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  /** The address server.mjs listens on (`-H` overrides it). Unset: every address. */
  HOSTNAME: z.string().min(1).optional(),
  /** The build folder (`next build` writes it, server.mjs serves it). */
  NEXT_DIST_DIR: z.string().min(1).default(".next"),
  /** Proxies in front whose X-Forwarded-For is believed (server.mjs; lib/http/front-door.ts). Unset: none. */
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((value, ctx) => {
      try {
        return parseTrustedProxies(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message.replace(/^TRUSTED_PROXIES: /, "") });
        return z.NEVER;
      }
    }),
  /** `off`: every `/v1` request goes through Next's router instead of the API lane (server/api-lane.mjs). */
  API_LANE: z.enum(["on", "off"]).default("on"),
  /** A PostgreSQL server. Unset: the embedded database under PGLITE_DATA_DIR. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// connection string")
    .optional(),
  PGLITE_DATA_DIR: z.string().min(1).default(".data/pglite"),
  /** A folder for the embedded database's Unix socket (made private, mode 0700). Unset: a fresh temporary one. */
  EMBEDDED_DB_SOCKET_DIR: z.string().min(1).optional(),
  /** Absolute origin for links, e.g. https://contracts.example.com. Unset: the request's origin. */
  PUBLIC_URL: z.url().optional(),
  SEED_API_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  SEED_ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  /** Secret for signing session cookies; generated and kept in the database when unset. */
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** The certificate and key sealed copies are signed with: a path to a PKCS#12 (.p12/.pfx) file, or the file in base64. Unset: a self-signed one is made and kept in the database. */
  SEAL_P12: z.string().min(1).optional(),
  /** The password of SEAL_P12's file. */
  SEAL_P12_PASSWORD: z.string().optional(),
  /** An SMTP server for outgoing mail, e.g. smtp://user:pass@mail.example.com:587 (smtps:// for TLS from the start). Unset: mail is kept for the Outbox page. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]/, "must be an smtp:// or smtps:// URL")
    .optional(),
  /** The From address of outgoing mail, e.g. "Contracts <contracts@example.com>". */
  MAIL_FROM: z.string().min(3).default("Contracts <contracts@localhost>"),
  /** `off`: this instance runs no background work (mail, expiry); others on the same database do. */
  BACKGROUND_JOBS: z.enum(["on", "off"]).default("on"),
  /** How often (ms) each instance looks for due mail; new mail from the same instance goes at once. */
  MAIL_POLL_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(2_000),
  /** How often (ms) each instance looks for pending contracts past their signing period. */
  OVERDUE_CHECK_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** How often (ms) each instance looks for due reminders and expiry warnings (docs/mail.md "Reminders"). */
  REMINDER_CHECK_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** How often (ms) each instance looks for contracts whose lifecycle moves (start, renewal, end), owner warnings and internal reminders due (docs/lifecycle.md "The job"). */
  LIFECYCLE_CHECK_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** How often (ms) each instance folds the contract count deltas into the totals the list's count reads. */
  COUNT_FOLD_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(2_000),
  /** `1`: webhook callback URLs may point at loopback and private addresses (tests, closed networks). Never on a public deployment. */
  WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(["0", "1"]).default("0"),
  /** How often (ms) each instance queues new events for webhook subscriptions and sends due deliveries. */
  WEBHOOK_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(1_000),
  /** Multiplies every webhook retry delay and the give-up/pause windows (tests use e.g. 0.001). */
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  /** The Bearer token /metrics asks for (server/operations.mjs). Unset: /metrics answers only loopback callers that no proxy forwarded. */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

export type TEnv = z.infer<typeof ZEnvSchema>;

let cached: TEnv | undefined;

export function env(): TEnv {
  if (cached) return cached;
  // An empty variable means "unset" (a common way to clear one in a shell or .env file).
  const raw = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== ""));
  const parsed = ZEnvSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  cached = parsed.data;
  return cached;
}
