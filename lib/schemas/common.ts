import { z } from "zod";

import { COUNTRY_CODES } from "./country-codes";

/** Ids are Postgres `integer`s; anything outside this range is a 400, never a database error. */
export const MAX_ID = 2_147_483_647;

/**
 * The message for a value of the wrong type. A missing value and `null` get their own words:
 * clients send both by mistake, and `null` never means "clear" in this API (`clearWith` says what does).
 */
export function typeError(expected: string, options: { clearWith?: string } = {}) {
  return (issue: { input?: unknown }) => {
    if (issue.input === undefined) return "is required";
    if (issue.input === null) return options.clearWith ? `must not be null; send ${options.clearWith} to clear it` : "must not be null";
    return `must be ${expected}`;
  };
}

/** A closed set of strings whose message lists the accepted values, so a client can fix its request. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, {
    error: (issue) => {
      if (issue.input === undefined) return "is required";
      if (issue.input === null) return "must not be null";
      return `must be one of: ${values.join(", ")}`;
    },
  });
}

/** How many unknown attributes of one object an error names (and reports in `parameter_problems`). */
export const MAX_REPORTED_UNKNOWN_KEYS = 20;

/**
 * A request body object that rejects unknown keys with a message naming them. `hints` gives a
 * better message for keys a client is likely to send by mistake (read-only fields, the wrong form).
 */
export function requestObject<T extends z.core.$ZodLooseShape>(shape: T, hints: Readonly<Record<string, string>> = {}) {
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === "unrecognized_keys") {
        const named = issue.keys.slice(0, MAX_REPORTED_UNKNOWN_KEYS).map((key) => `"${key}" ${Object.hasOwn(hints, key) ? hints[key] : "is not a known attribute"}`);
        const more = issue.keys.length - named.length;
        return [...named, ...(more > 0 ? [`${more} more unknown attributes`] : [])].join("; ");
      }
      return typeError("an object")(issue);
    },
  });
}

export const ZBooleanSchema = z.boolean({ error: typeError("true or false") });

export const ZIdSchema = z
  .number({ error: typeError("an integer") })
  .int("must be an integer")
  .min(1, "must be a positive integer")
  .max(MAX_ID, `must be at most ${MAX_ID}`)
  .meta({ example: 42 });

const idParamMessage = `must be an integer from 1 to ${MAX_ID}`;

/** An id in a path or query string: digits only (no sign, no decimals, no exponent), in int32 range. */
export const ZIdParamSchema = z
  .string({ error: typeError("a string") })
  .regex(/^\d+$/, { error: idParamMessage, abort: true })
  .refine((value) => {
    const id = Number(value);
    return id >= 1 && id <= MAX_ID;
  }, idParamMessage)
  .transform(Number)
  .meta({ example: "42" });

/** The type mark of a path parameter that `selfParsedPathParam` made. */
export type TSelfParsedPathParam = { readonly "~selfParsedPathParam": true };

const selfParsed = new WeakSet<z.ZodType>();

/**
 * A path parameter that is not (only) a positive integer id: the endpoint handler parses it with
 * this schema instead of the canonical id rule (lib/api/endpoint.ts `pathParamsParser`), and a failure
 * is a 400 `invalid_path_id` naming it. Apply it last (after `.meta()`, which makes a new schema).
 */
export function selfParsedPathParam<T extends z.ZodType>(schema: T): T & TSelfParsedPathParam {
  selfParsed.add(schema);
  return schema as T & TSelfParsedPathParam;
}

export function isSelfParsedPathParam(schema: unknown): schema is z.ZodType {
  return typeof schema === "object" && schema !== null && selfParsed.has(schema as z.ZodType);
}

/**
 * What a name may not hold: C0 controls (line breaks, tabs, NUL, …), DEL, C1 controls, the line and
 * paragraph separators, and the bidirectional embeddings, overrides and isolates (which can make a
 * name read differently from what it is). Names are one line of text wherever they are shown.
 */
const NAME_CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** Whether a name holds any of those. */
export const hasNameControlCharacters = (name: string): boolean => NAME_CONTROL_CHARACTERS.test(name);

/** The same for text of several lines (a reason): everything a name may not hold but the line break (LF). */
export const hasTextControlCharacters = (text: string): boolean => NAME_CONTROL_CHARACTERS.test(text.replaceAll("\n", ""));

/**
 * A reason (withdrawing, declining, delegating): plain text of up to 2,000 characters, trimmed, line
 * breaks kept (CR LF stored as LF), no other control characters; "" when none is given. The
 * messages are the caller's, since the API and the signing page word them differently.
 */
export const reasonSchema = (messages: { tooLong: string; notPlain: string }) =>
  z
    .string({ error: typeError("a string") })
    .trim()
    .overwrite((text) => text.replace(/\r\n?/g, "\n"))
    .max(2000, messages.tooLong)
    .refine((text) => !hasTextControlCharacters(text), messages.notPlain)
    .default("");

/** 1–100 characters of plain text after trimming; shared by contract, party, participant and API token names. */
export const ZNameSchema = z
  .string({ error: typeError("a string") })
  .trim()
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters")
  .refine((name) => !hasNameControlCharacters(name), "must be one line of text, without line breaks, tabs or other control characters");

/** What the API answers with: UTC, millisecond precision, numeric offset (docs/api.md "Conventions"). */
export const ZTimestampSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/, "must be an ISO 8601 timestamp ending in +00:00")
  .meta({ format: "date-time", example: "2024-05-01T09:30:00.000+00:00" });

export const ZLinkSchema = z
  .object({ href: z.string().meta({ format: "uri", description: "Absolute address of the related resource." }) })
  .meta({ id: "Link" });

export type TLink = z.infer<typeof ZLinkSchema>;

/** ISO 3166-1 alpha-2 in any case, stored and returned upper-case; `""` means not set. */
export const ZCountryCodeSchema = z
  .string({ error: typeError("a string", { clearWith: '""' }) })
  .trim()
  .toUpperCase()
  .refine((code) => code === "" || COUNTRY_CODES.has(code), "must be a two-letter ISO 3166-1 country code, e.g. SE")
  .meta({ description: 'ISO 3166-1 alpha-2 country code (any case; returned upper-case), or "" when not set.', example: "SE" });
