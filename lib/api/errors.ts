import { z } from "zod";
import { POOL_BUSY_MARK } from "@/lib/db/pool-busy-mark";
import { ERROR_CODES, type TErrorKey } from "@/lib/domain/error-codes";
import { DomainError, ROOT_PROBLEM_KEY, summarize, type DomainErrorExtra, type TParameterProblems } from "@/lib/domain/errors";
import { MAX_REPORTED_UNKNOWN_KEYS } from "@/lib/schemas/common";
import type { TApiError } from "@/lib/schemas/error";

/**
 * An error only the HTTP layer throws (a malformed body, a method not allowed, the database not
 * open yet). It is a DomainError, so everything is answered through the one mapping below.
 */
export class ApiError extends DomainError {
  override readonly name: string = "ApiError";
}

/** `throw apiError("option_not_offered", "…", { parameterProblems })` */
export function apiError(key: TErrorKey, detail: string, extra?: DomainErrorExtra): ApiError {
  return new ApiError(key, detail, extra);
}

/** Seconds a client should wait before retrying while the database is unreachable. */
const DATABASE_RETRY_AFTER_SECONDS = 5;
/** Seconds a client should wait before retrying while the database is busy. */
const BUSY_RETRY_AFTER_SECONDS = 2;

/** THE mapping from anything thrown to the error it answers with. Everything else calls this. */
export function toApiError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof z.core.$ZodError) return fromZodError(error, "validation_failed");
  // Before "unavailable": a timeout while every connection was in use is a busy database, not an
  // absent one, and the client should hear the true reason.
  if (isDatabaseBusy(error)) {
    return new ApiError("database_busy", "The service is busy right now and nothing was changed. Retry shortly.", {
      headers: { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) },
      cause: error,
    });
  }
  if (isDatabaseUnavailable(error)) {
    return new ApiError("database_unavailable", "The database is not reachable right now. Retry shortly.", {
      headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) },
      cause: error,
    });
  }
  // What PostgreSQL itself refused, by SQLSTATE, however the statement was sent (Prisma's raw
  // queries carry it deep in their causes; node-postgres on the error itself). The readers and
  // schemas refuse such input first: this keeps what gets past them a 4xx.
  const sqlState = sqlStateOf(error);
  if (sqlState !== undefined) {
    if (sqlState === "22021" || sqlState === "22P05") {
      return new ApiError("bad_request", "A value contains a character that cannot be stored (such as U+0000).", { cause: error });
    }
    if (sqlState.startsWith("22") || sqlState === "54000") {
      return new ApiError("bad_request", "A value is not valid here, too long or out of range.", { cause: error });
    }
    if (sqlState === "23505") return new ApiError("already_exists", "A resource with these unique values already exists.", { cause: error });
    if (sqlState === "23503" || sqlState === "40001" || sqlState === "40P01") {
      return new ApiError("conflict", "The resource was changed concurrently. Retry the request.", { cause: error });
    }
  }
  const prismaCode = prismaErrorCode(error);
  switch (prismaCode) {
    case "P2025": // "An operation failed because it depends on one or more records that were required but not found."
      return new ApiError("resource_not_found", "The resource does not exist.", { cause: error });
    case "P2002": // unique constraint
      return new ApiError("already_exists", "A resource with these unique values already exists.", { cause: error });
    case "P2003": // foreign key: what it pointed at went away meanwhile
    case "P2034": // write conflict or deadlock between concurrent transactions
      return new ApiError("conflict", "The resource was changed concurrently. Retry the request.", { cause: error });
    case "P2000": // value too long for its column
    case "P2020": // value out of range
      // Validation should have caught it, but it came from the client: never a 500 for client input.
      return new ApiError("bad_request", "A value is too long or out of range.", { cause: error });
  }
  return new ApiError("internal_error", "An unexpected error occurred.", { cause: error });
}

/**
 * Builds the error body of spec/DESIGN "Errors" (`lib/schemas/error.ts`) for anything thrown.
 * `origin` makes `type` an absolute link to the code's documentation.
 */
export function errorResponse(error: unknown, ctx: { requestId: string; origin: string }): Response {
  const e = toApiError(error);
  const { code, status, title } = ERROR_CODES[e.key];
  const detail =
    e.key === "internal_error"
      ? `An unexpected error occurred. Quote request_id ${ctx.requestId} when reporting it.`
      : e.message;
  const body: TApiError = {
    status,
    title,
    detail,
    error_code: code,
    type: `${ctx.origin}/v1/error_codes/${code}`,
    request_id: ctx.requestId,
    ...(e.parameterProblems && Object.keys(e.parameterProblems).length > 0
      ? { parameter_problems: e.parameterProblems }
      : {}),
  };
  const headers = new Headers(e.headers);
  headers.set("Content-Type", "application/json");
  headers.set("Cache-Control", "no-store");
  headers.set("X-Request-Id", ctx.requestId);
  return new Response(JSON.stringify(body), { status, headers });
}

// --- zod ------------------------------------------------------------------------------------------

const UNKNOWN_ATTRIBUTE_MESSAGE = "unknown or read-only attribute";

/**
 * The schema's message for one unknown key: request schemas phrase it per key
 * (`"id" is read-only; "foo" is not a known attribute`), so each key keeps its own reason.
 */
function unknownKeyMessage(message: string, key: string): string {
  const prefix = `"${key}" `;
  const part = message.split("; ").find((p) => p.startsWith(prefix));
  return part ? part.slice(prefix.length) : UNKNOWN_ATTRIBUTE_MESSAGE;
}

/** zod issues as `parameter_problems`, keyed by dotted path; an unknown key is keyed by its own path. */
export function zodParameterProblems(error: z.core.$ZodError): {
  problems: TParameterProblems;
  onlyUnknownKeys: boolean;
} {
  // Keys come from the client's body: a Map, so `__proto__` or `constructor` are plain keys.
  const collected = new Map<string, string[]>();
  const add = (path: readonly PropertyKey[], message: string) => {
    const key = path.length === 0 ? ROOT_PROBLEM_KEY : path.map(String).join(".");
    const list = collected.get(key) ?? [];
    if (!list.includes(message)) list.push(message);
    collected.set(key, list);
  };
  let onlyUnknownKeys = error.issues.length > 0;
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      // Only the first few keys: each lookup scans the message, and a body can hold thousands.
      for (const key of issue.keys.slice(0, MAX_REPORTED_UNKNOWN_KEYS)) add([...issue.path, key], unknownKeyMessage(issue.message, key));
    } else {
      onlyUnknownKeys = false;
      add(issue.path, issue.message);
    }
  }
  const problems: TParameterProblems = {};
  for (const [key, messages] of collected) Object.defineProperty(problems, key, { value: messages, enumerable: true, writable: true, configurable: true });
  return { problems, onlyUnknownKeys };
}

/** A zod failure as a 400; `key` is the code used unless the only problems are unknown attributes. */
export function fromZodError(
  error: z.core.$ZodError,
  key: "validation_failed" | "invalid_query_parameter",
): ApiError {
  const { problems, onlyUnknownKeys } = zodParameterProblems(error);
  const finalKey = key === "validation_failed" && onlyUnknownKeys ? "unknown_attribute" : key;
  return new ApiError(finalKey, summarize(problems), { parameterProblems: problems });
}

// --- database -------------------------------------------------------------------------------------

/**
 * Prisma errors are recognised by name and code, not `instanceof`: the bundler may load the runtime
 * twice (route bundle and external package), and then `instanceof` silently fails.
 */
function prismaErrorCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || error.name !== "PrismaClientKnownRequestError") return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** Prisma codes of a database that cannot be reached, is overloaded or dropped the connection. */
const UNAVAILABLE_PRISMA_CODES = new Set([
  "P1000", // authentication failed (server reconfigured under us)
  "P1001", // can't reach database server
  "P1002", // server reached but timed out
  "P1003", // database does not exist (yet)
  "P1008", // operation timed out
  "P1010", // access denied
  "P1011", // TLS error
  "P1017", // server closed the connection
  "P2037", // too many connections
]);

/** Prisma codes of work that could not get its turn in time. */
const BUSY_PRISMA_CODES = new Set([
  "P2024", // timed out fetching a connection from the pool
  "P2028", // a transaction could not start in time, or ran past its timeout (queued behind others)
]);

/**
 * SQLSTATEs of a statement stopped by the server's own time limits (lib/db sets them):
 * lock_not_available (lock_timeout), query_canceled (statement_timeout).
 */
const BUSY_SQLSTATES = new Set(["55P03", "57014"]);

/** The first SQLSTATE (five digits or capitals; not a Prisma code, P1000–P6999) in `error`'s chain of causes. */
function sqlStateOf(error: unknown): string | undefined {
  let found: string | undefined;
  someInChain(error, (e) => {
    const { code, originalCode } = e as { code?: unknown; originalCode?: unknown };
    found = [code, originalCode].find((c): c is string => typeof c === "string" && /^[0-9A-Z]{5}$/.test(c) && !/^P[1-9]/.test(c));
    return found !== undefined;
  });
  return found;
}

/** True when `error`, or anything in its chain of causes, says the database was too busy to answer in time. */
export function isDatabaseBusy(error: unknown): boolean {
  return someInChain(error, (e) => {
    const { name, code, originalCode, message } = e as { name?: unknown; code?: unknown; originalCode?: unknown; message?: unknown };
    if (name === "PrismaClientKnownRequestError" && typeof code === "string" && BUSY_PRISMA_CODES.has(code)) return true;
    if (typeof code === "string" && BUSY_SQLSTATES.has(code)) return true;
    if (typeof originalCode === "string" && BUSY_SQLSTATES.has(originalCode)) return true;
    // lib/db marks a pool wait that timed out while every connection was in use.
    return typeof message === "string" && message.includes(POOL_BUSY_MARK);
  });
}

/** Walks `error`'s causes (Error.cause, AggregateError.errors, Prisma's driver adapter error). */
function someInChain(error: unknown, test: (e: object) => boolean): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 10) {
    const e = queue.shift();
    if (typeof e !== "object" || e === null || seen.has(e)) continue;
    seen.add(e);
    if (test(e)) return true;
    const { cause, meta, errors } = e as { cause?: unknown; meta?: { driverAdapterError?: unknown }; errors?: unknown };
    if (Array.isArray(errors)) queue.push(...errors);
    queue.push(cause, meta?.driverAdapterError);
  }
  return false;
}

/** `kind`s of @prisma/driver-adapter-utils' DriverAdapterError that mean "no usable connection". */
const UNAVAILABLE_ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "TlsConnectionError",
  "AuthenticationFailed",
  "DatabaseDoesNotExist",
  "DatabaseAccessDenied",
]);

/**
 * Node socket errors, and PostgreSQL SQLSTATEs of class 08 (connection), 57P (shutting down), a
 * database that is gone (3D000) and credentials refused (28000, 28P01).
 */
const UNAVAILABLE_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "28000",
  "28P01",
  "3D000",
  "53300",
  "57P01",
  "57P02",
  "57P03",
]);

// `pg` reports these as plain Errors without a code; a database that takes no connections
// (`ALLOW_CONNECTIONS false`) answers 55000, a code other failures share.
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed|is not currently accepting connections/i;

/** True when `error`, or anything in its chain of causes, says the database cannot be used now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return someInChain(error, (e) => {
    const { name, code, kind, message } = e as { name?: unknown; code?: unknown; kind?: unknown; message?: unknown };
    if (name === "PrismaClientInitializationError") return true;
    if (name === "PrismaClientKnownRequestError" && typeof code === "string" && UNAVAILABLE_PRISMA_CODES.has(code)) return true;
    if (typeof kind === "string" && UNAVAILABLE_ADAPTER_KINDS.has(kind)) return true;
    if (typeof code === "string" && UNAVAILABLE_ERROR_CODES.has(code)) return true;
    return typeof message === "string" && UNAVAILABLE_MESSAGE.test(message);
  });
}
