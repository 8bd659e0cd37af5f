import { ERROR_CODES, type TErrorKey } from "@/lib/domain/error-codes";

export type TParameterProblems = Record<string, string[]>;

export interface DomainErrorExtra {
  /** Messages per offending field path, e.g. `{ "parties.0.participants.0.email": ["…"] }`. */
  parameterProblems?: TParameterProblems;
  /** What the caller needs to act on the error, e.g. the current `ETag` or `Retry-After`. */
  headers?: Record<string, string>;
  /** The underlying error; logged with the request, never sent to the client. */
  cause?: unknown;
}

const DOMAIN_ERROR = Symbol.for("contracts-admin.domain-error");

/**
 * The one error type the domain (and everything below HTTP) throws to refuse something, keyed by
 * its error code (lib/domain/error-codes.ts). lib/api maps it to the HTTP error shape. Its message
 * (the `detail`) is shown to the client, so it must never carry internals; put those in `cause`.
 */
export class DomainError extends Error {
  /**
   * `error instanceof DomainError` holds for a DomainError of any copy of this module: the server
   * bundles may load it more than once (each route's bundle its own), and an object kept on
   * `globalThis` (the rate limiter) throws with the copy that made it. Subclasses keep the usual check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== DomainError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && DOMAIN_ERROR in value;
  }

  readonly [DOMAIN_ERROR] = true;
  override readonly name: string = "DomainError";
  readonly key: TErrorKey;
  readonly parameterProblems: TParameterProblems | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(key: TErrorKey, detail: string, extra: DomainErrorExtra = {}) {
    super(detail, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.key = key;
    this.parameterProblems = extra.parameterProblems;
    this.headers = extra.headers;
  }

  get status(): number {
    return ERROR_CODES[this.key].status;
  }

  get code(): number {
    return ERROR_CODES[this.key].code;
  }
}

/** Key of problems that concern the whole value rather than one attribute of it. */
export const ROOT_PROBLEM_KEY = "$";

/** "limit: must be at most 100" (and how many more), so a log line or a toast alone says enough. */
export function summarize(problems: TParameterProblems): string {
  const entries = Object.entries(problems);
  const first = entries[0];
  if (!first) return "The request is not valid.";
  const [path, messages] = first;
  const more = entries.reduce((n, [, m]) => n + m.length, 0) - 1;
  const head = path === ROOT_PROBLEM_KEY ? `${messages[0]}` : `${path}: ${messages[0]}`;
  return more > 0 ? `${head} (and ${more} more; see parameter_problems)` : head;
}
