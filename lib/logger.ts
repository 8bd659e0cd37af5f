import { isoTime, nowMs } from "@/lib/clock";
import { env } from "@/lib/env";

/**
 * A JSON-lines logger on stdout: one object per line, which every log collector can ingest.
 * (pino is not installed; this is all the project needs of it.)
 */
export type TLogLevel = "debug" | "info" | "warn" | "error";

const RANK: Record<TLogLevel | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

function threshold(): number {
  try {
    return RANK[env().LOG_LEVEL];
  } catch {
    // A broken environment must not also break logging (that is how it gets reported).
    return RANK.info;
  }
}

function write(level: TLogLevel, msg: string, fields: Record<string, unknown>): void {
  if (RANK[level] < threshold()) return;
  let line: string;
  try {
    // The line's head written once, the fields' own JSON after it: the same text as stringifying
    // `{ level, time, msg, ...fields }`, without building that object (a line per request).
    line = "level" in fields || "time" in fields || "msg" in fields ? JSON.stringify({ level, time: now(), msg, ...fields }) : joined(level, msg, JSON.stringify(fields));
  } catch {
    // Circular or BigInt values: keep the line, lose the fields.
    line = JSON.stringify({ level, time: now(), msg, unserializable_fields: true });
  }
  buffered(line);
}

function joined(level: TLogLevel, msg: string, fieldsJson: string): string {
  const head = `{"level":"${level}","time":"${now()}","msg":${JSON.stringify(msg)}`;
  return fieldsJson === "{}" ? `${head}}` : `${head},${fieldsJson.slice(1)}`;
}

// Under load many lines share a millisecond: its ISO text is made once.
let lastMs = -1;
let lastIso = "";
function now(): string {
  const ms = nowMs();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = isoTime(ms);
  }
  return lastIso;
}

// Lines wait up to FLUSH_AFTER_MS (or until 64 KB are waiting) and go out in one write: stdout on a
// pipe or a file is a synchronous system call per write, and under load a turn of the event loop
// answers only a few requests, so a write per turn was a write every two or three requests. What
// waits is written at exit too; only a process killed outright loses its last few milliseconds.
let pending = "";
let scheduled = false;
const FLUSH_AT = 64 * 1024;
export const FLUSH_AFTER_MS = 10;

function buffered(line: string): void {
  pending += line + "\n";
  if (pending.length >= FLUSH_AT) flushLog();
  else if (!scheduled) {
    scheduled = true;
    setTimeout(flushLog, FLUSH_AFTER_MS).unref();
  }
}

/** Writes what is buffered now (also at exit, so no line is lost on a normal or `process.exit` end). */
export function flushLog(): void {
  scheduled = false;
  if (pending === "") return;
  const out = pending;
  pending = "";
  process.stdout.write(out);
}
process.on("exit", flushLog);

/** The fields of the one line every API request writes (lib/api/handler.ts). */
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

/** A field's value as JSON; undefined (which the types rule out) as null, so the line stays JSON. */
const json = (value: string | number | null) => JSON.stringify(value) ?? "null";

/**
 * `logger.info("request", fields)`, written from the known fields (the same text, in the same
 * order) without a fields object to walk: this runs on every API request.
 */
export function logRequest(fields: TRequestLogFields): void {
  if (RANK.info < threshold()) return;
  buffered(
    `{"level":"info","time":"${now()}","msg":"request","method":${json(fields.method)},"route":${json(fields.route)},` +
      `"path":${json(fields.path)},"status":${json(fields.status)},"duration_ms":${json(fields.duration_ms)},` +
      `"request_id":${json(fields.request_id)},"user_id":${json(fields.user_id)},"api_token_id":${json(fields.api_token_id)}}`,
  );
}

export const logger = {
  debug: (msg: string, fields: Record<string, unknown> = {}) => write("debug", msg, fields),
  info: (msg: string, fields: Record<string, unknown> = {}) => write("info", msg, fields),
  warn: (msg: string, fields: Record<string, unknown> = {}) => write("warn", msg, fields),
  error: (msg: string, fields: Record<string, unknown> = {}) => write("error", msg, fields),
};

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
