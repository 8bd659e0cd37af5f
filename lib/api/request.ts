import type { z } from "zod";
import { ApiError, fromZodError } from "@/lib/api/errors";
import { isSelfParsedPathParam } from "@/lib/schemas/common";
import { MAX_BODY_BYTES } from "@/lib/http/front-door";

export const MAX_JSON_DEPTH = 32;
/** The most attributes one object of a request body may have (no request object has more than a few dozen). */
export const MAX_OBJECT_MEMBERS = 1000;

/** One decoder for every body: `decode` without `stream` keeps no state between calls. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body of a write request as a JSON object, or the 4xx that explains why not. Checks happen
 * before anything is parsed: media type (415), size (413), nesting depth (400), then JSON (400).
 */
export async function readJsonBody(
  req: Request,
  { maxBytes = MAX_BODY_BYTES, maxDepth = MAX_JSON_DEPTH }: { maxBytes?: number; maxDepth?: number } = {},
): Promise<Record<string, unknown>> {
  if (!isJsonContentType(req.headers.get("content-type"))) {
    throw new ApiError("content_type_not_json", "Send the body as JSON with Content-Type: application/json.");
  }
  const bytes = await readBodyBytes(req, maxBytes);

  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new ApiError("malformed_json", "The body is not valid UTF-8.");
  }
  if (text.trim() === "") throw new ApiError("malformed_json", "The body is empty; send a JSON object.");

  // Before JSON.parse: a deep body must not cost a deep object graph (or the stack of whoever walks it).
  if (jsonNestingDepth(text, maxDepth) > maxDepth) {
    throw new ApiError("json_too_deep", `The body nests objects and arrays more than ${maxDepth} levels deep.`);
  }

  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // V8's message names the position ("Unexpected token } in JSON at position 12"): useful, not internal.
    const reason = error instanceof SyntaxError ? `: ${error.message}` : "";
    throw new ApiError("malformed_json", `The body is not valid JSON${reason}.`);
  }
  // PostgreSQL text cannot hold U+0000, and a lone surrogate is not Unicode: refuse both here,
  // once, instead of letting them reach (and fail in) the database. (A walk after parsing, not a
  // reviver: V8 parses with a reviver several times slower.) The depth was bounded above.
  const { badText, tooWide } = inspectValues(value);
  if (tooWide) {
    throw new ApiError("validation_failed", `An object in the body has more than ${MAX_OBJECT_MEMBERS} attributes.`);
  }
  if (badText) {
    throw new ApiError("validation_failed", "Text values must be valid Unicode without NUL (\\u0000) characters.");
  }
  // JSON.parse keeps the last of two equal names; which one a client meant is guesswork, and a
  // reader that took the first would see another body than the one acted on.
  const duplicate = firstDuplicateKey(text);
  if (duplicate !== null) {
    throw new ApiError("validation_failed", `"${duplicate}" is given more than once in one object.`, {
      parameterProblems: { [duplicate]: ["must be given at most once"] },
    });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const what = Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
    throw new ApiError("body_not_object", `The body must be a JSON object, not ${what}.`);
  }
  return value as Record<string, unknown>;
}

/**
 * Whether any string value in a parsed body holds U+0000 or a lone surrogate (`badText`), and
 * whether any object has more than MAX_OBJECT_MEMBERS attributes (`tooWide`). Keys are not values:
 * as JSON.parse's reviver saw it, only values are checked.
 */
function inspectValues(root: unknown): { badText: boolean; tooWide: boolean } {
  let badText = false;
  let tooWide = false;
  const visit = (v: unknown): void => {
    if (typeof v === "string") {
      if (v.includes("\u0000") || !v.isWellFormed()) badText = true;
    } else if (Array.isArray(v)) {
      for (const item of v) visit(item);
    } else if (typeof v === "object" && v !== null) {
      const keys = Object.keys(v);
      if (keys.length > MAX_OBJECT_MEMBERS) tooWide = true;
      for (const key of keys) visit((v as Record<string, unknown>)[key]);
    }
  };
  visit(root);
  return { badText, tooWide };
}

/** `application/json`, with any parameters (`; charset=utf-8`), in any case. */
export function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  const mediaType = header.split(";", 1)[0]?.trim().toLowerCase();
  return mediaType === "application/json";
}

/**
 * THE body reader: the bytes of `req`'s body, or a 413 `ApiError` once they pass `maxBytes`, by the
 * declared Content-Length before a byte is read and by counting while the body streams in (for
 * clients that send none, or lie). Every route that reads a body reads it through this.
 */
export async function readBodyBytes(req: Request, maxBytes: number = MAX_BODY_BYTES): Promise<Uint8Array> {
  const tooLarge = () => new ApiError("body_too_large", `The body is larger than ${maxBytes} bytes.`);
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  return readAtMost(req, maxBytes, tooLarge);
}

/** Reads the body stream, giving up (and cancelling the upload) as soon as it passes `maxBytes`. */
async function readAtMost(req: Request, maxBytes: number, tooLarge: () => ApiError): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * The deepest nesting of `[`/`{` in JSON text, counted in one pass without recursion; stops counting
 * once past `limit`. Brackets inside strings do not count. Malformed text is left to JSON.parse.
 */
export function jsonNestingDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++; // skip the escaped character
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return max;
}

/**
 * The first name that occurs twice in one object of well-formed JSON `text` (names compared after
 * unescaping, so `"a"` and `"\\u0061"` are the same), else null. One pass, no recursion.
 */
export function firstDuplicateKey(text: string): string | null {
  const objects: (Set<string> | null)[] = []; // null: an array
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let end = i + 1;
      while (end < text.length && text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c ? 2 : 1;
      const names = objects[objects.length - 1];
      if (expectName && names) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (names.has(name)) return name;
        names.add(name);
        expectName = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      objects.push(new Set());
      expectName = true;
    } else if (c === 0x5b /* [ */) {
      objects.push(null);
      expectName = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      objects.pop();
      expectName = false;
    } else if (c === 0x2c /* , */) {
      expectName = objects[objects.length - 1] instanceof Set;
    }
  }
  return null;
}

const INT32_MAX = 2_147_483_647;

/**
 * A path id: a positive integer in Postgres `integer` range, written canonically (no sign, leading
 * zeros, exponent or fraction), so one resource has one URL. Anything else is a 400, never a query.
 */
export function parseIdParam(raw: string | undefined, name: string): number {
  const value = raw !== undefined && /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(value <= INT32_MAX)) {
    const message = `must be a positive integer no greater than ${INT32_MAX}`;
    throw new ApiError("invalid_path_id", `${name} ${message}.`, { parameterProblems: { [name]: [message] } });
  }
  return value;
}

const NUL_PROBLEM = "must not contain the NUL character (%00)";

/** PostgreSQL's text cannot hold U+0000: a path or query parameter with one is refused, as in JSON bodies. */
function refuseNul(value: string | undefined, name: string, error: "invalid_path_id" | "invalid_query_parameter"): void {
  if (value?.includes("\u0000")) throw new ApiError(error, `${name}: ${NUL_PROBLEM}.`, { parameterProblems: { [name]: [NUL_PROBLEM] } });
}

/**
 * The path parameters an endpoint declares (lib/schemas/endpoints.ts): each is a canonical id
 * (`parseIdParam`), unless its schema is marked `selfParsedPathParam`; then that schema parses it,
 * and a value it refuses is the same 400 `invalid_path_id`, naming the parameter.
 */
export function parsePathParams(raw: Readonly<Record<string, string | undefined>>, schema: z.ZodObject | undefined): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema?.shape ?? {})) {
    if (!isSelfParsedPathParam(field)) {
      params[name] = parseIdParam(raw[name], name);
      continue;
    }
    refuseNul(raw[name], name, "invalid_path_id");
    const parsed = field.safeParse(raw[name]);
    if (!parsed.success) {
      const messages = [...new Set(parsed.error.issues.map((issue) => issue.message))];
      throw new ApiError("invalid_path_id", `${name} ${messages[0]}.`, { parameterProblems: { [name]: messages } });
    }
    params[name] = parsed.data;
  }
  return params;
}

/**
 * Query parameters through a zod schema. Each parameter may appear once (which of two values would
 * win is guesswork); parameters the schema does not know are ignored, as web APIs usually do.
 */
export function parseQuery<T extends z.ZodType>(url: URL, schema: T): z.output<T> {
  const known = knownKeys(schema);
  // A Map, not an object: a parameter named `__proto__` or `toString` is just a name.
  const values = new Map<string, string>();
  let repeated: Set<string> | undefined;
  for (const [key, value] of url.searchParams) {
    if (known && !known.has(key)) continue;
    refuseNul(value, key, "invalid_query_parameter");
    if (values.has(key)) (repeated ??= new Set()).add(key);
    else values.set(key, value);
  }
  if (repeated) {
    const problems = Object.fromEntries([...repeated].map((key) => [key, ["must be given at most once"]]));
    throw new ApiError("invalid_query_parameter", `${[...repeated][0]}: must be given at most once.`, {
      parameterProblems: problems,
    });
  }
  const parsed = schema.safeParse(Object.fromEntries(values));
  if (!parsed.success) throw fromZodError(parsed.error, "invalid_query_parameter");
  return parsed.data;
}

/** Each schema's keys, found once (a schema is a module constant; every request asks again). */
const keysOf = new WeakMap<z.ZodType, Set<string> | undefined>();

/** The keys of an object schema; undefined for other schemas (then every parameter is checked). */
function knownKeys(schema: z.ZodType): Set<string> | undefined {
  if (keysOf.has(schema)) return keysOf.get(schema);
  const shape = (schema as { shape?: unknown }).shape;
  const keys = shape && typeof shape === "object" ? new Set(Object.keys(shape)) : undefined;
  keysOf.set(schema, keys);
  return keys;
}
