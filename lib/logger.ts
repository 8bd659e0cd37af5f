// The one logger of the app and of its HTTP server (server.mjs), on pino: JSON lines on stdout in
// production (`{"level":"info","time":"<ISO>",…fields,"msg":"…"}`, what log collectors ingest),
// pretty-printed in development (`npm run dev`). server.mjs loads this file outside the Next build
// (Node's type stripping): relative imports with `.ts` only. Next keeps pino and pino-pretty out of
// its bundles by default, and pino-pretty (development only) runs here as a plain stream, not as a
// worker transport.
import { createRequire } from "node:module";
import pino, { type Logger } from "pino";
import { env } from "./env.ts";

/**
 * pino itself, made when this module is first imported: whoever imports it must have settled
 * NODE_ENV first (server.mjs sets it for `--dev` before its `await import("./lib/logger.ts")`; Next
 * sets it before loading the app). Calls take pino's own arguments, fields first:
 * `logger.warn({ ...fields }, "msg")`. No function of this file runs when a line is written (the
 * level's word is worked out once, when pino is made, and kept).
 */
export const logger: Logger = createLogger();

function createLogger(): Logger {
  let level = "info";
  let development = process.env.NODE_ENV === "development";
  try {
    ({ LOG_LEVEL: level } = env());
    development = env().NODE_ENV === "development";
  } catch {
    // A broken environment must not also break logging (that is how it gets reported).
  }
  // pino-pretty is loaded only in development: a production process never needs it.
  const pretty = development ? (createRequire(import.meta.url)("pino-pretty") as typeof import("pino-pretty")) : undefined;
  return pretty
    ? pino({ level }, pretty({ sync: true, colorize: process.stdout.isTTY, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" }))
    : pino(
        {
          level,
          base: undefined, // no pid and hostname on every line
          timestamp: pino.stdTimeFunctions.isoTime,
          formatters: { level: (label) => ({ level: label }) },
        },
        // Synchronous on files and pipes: a line is out when the call returns, also at process.exit.
        process.stdout,
      );
}

/**
 * The fields of the one line every API request writes, `logger.info(fields, "request")`
 * (lib/api/endpoint.ts; server.mjs's refusals write a "request" line too, with `error_code` and no user).
 */
export interface TRequestLogFields {
  method: string;
  route: string;
  path: string;
  status: number;
  duration_ms: number;
  request_id: string;
  user_id: number | null;
  api_token_id: number | null;
}

/**
 * What the operator must see, once: written at level warn whatever LOG_LEVEL says, unless it says
 * `silent` (the demo's generated credentials, which are never shown again).
 */
export function logNotice(msg: string, fields: Record<string, unknown>): void {
  if (logger.level === "silent") return;
  (logger.isLevelEnabled("warn") ? logger : logger.child({}, { level: "warn" })).warn(fields, msg);
}

/** An error as log fields: name, message, code, stack, and the chain of causes (driver errors hide there). */
export function serializeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) {
    // Prisma's DriverAdapterError keeps the driver's details as a plain object in `cause`.
    return typeof error === "object" && error !== null ? { value: error } : { value: String(error) };
  }
  const out: Record<string, unknown> = { name: error.name, message: error.message };
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" || typeof code === "number") out.code = code;
  if (error.stack) out.stack = error.stack;
  if (error.cause !== undefined && depth < 5) out.cause = serializeError(error.cause, depth + 1);
  return out;
}
