// Session tokens at rest: better-auth keeps the token it puts in the session cookie in
// `sessions.token`, in clear, so a copy of the database (a backup, a replica, a leaked dump) would
// let anyone replay every live session. better-auth has no option for this, so the Prisma client
// it is given stores and looks up SHA-256(token) instead, and hands better-auth the token it knows
// back in the results. A stolen row cannot be turned into a cookie.
import { createHash } from "node:crypto";
import type { PrismaClient } from "@/lib/db";

/** What `sessions.token` holds for a session whose cookie carries `token`. */
export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

type Plain = Map<string, string>; // hash → token, for the tokens this one operation named

/** `prisma` for better-auth: the same client, but session tokens are hashed on the way in. */
export function withHashedSessionTokens(prisma: PrismaClient): PrismaClient {
  return prisma.$extends({
    query: {
      session: {
        async $allOperations({ args, query }) {
          const plain: Plain = new Map();
          const a = args as Record<string, unknown>;
          for (const key of ["where", "data", "create", "update"] as const) {
            if (a[key] !== undefined) a[key] = hashTokens(a[key], plain, key === "where");
          }
          return restoreTokens(await query(args), plain);
        },
      },
    },
  }) as unknown as PrismaClient;
}

/** A copy of a where/data clause with every `token` value (and filter on it) hashed. */
function hashTokens(value: unknown, plain: Plain, filter: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => hashTokens(v, plain, filter));
  if (typeof value !== "object" || value === null || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === "token") out[key] = filter ? hashFilter(v, plain) : hashValue(v, plain);
    else if (filter && (key === "AND" || key === "OR" || key === "NOT")) out[key] = hashTokens(v, plain, true);
    else out[key] = v;
  }
  return out;
}

function hashValue(v: unknown, plain: Plain): unknown {
  if (typeof v === "string") {
    const hashed = hashSessionToken(v);
    plain.set(hashed, v);
    return hashed;
  }
  // `{ set: "…" }` in an update.
  if (typeof v === "object" && v !== null && "set" in v) return { ...v, set: hashValue((v as { set: unknown }).set, plain) };
  return v;
}

function hashFilter(v: unknown, plain: Plain): unknown {
  if (typeof v === "string") return hashValue(v, plain);
  if (typeof v !== "object" || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [op, operand] of Object.entries(v)) {
    if (op === "equals") out[op] = hashValue(operand, plain);
    else if (op === "in" || op === "notIn") out[op] = Array.isArray(operand) ? operand.map((o) => hashValue(o, plain)) : operand;
    else if (op === "not") out[op] = hashFilter(operand, plain);
    // Anything else (contains, startsWith, …) cannot match a hash: refuse rather than guess.
    else if (op !== "mode") throw new Error(`session token filter "${op}" is not supported on hashed tokens`);
  }
  return out;
}

/** Results with the hashes this operation produced replaced by the tokens they came from. */
function restoreTokens(result: unknown, plain: Plain): unknown {
  if (plain.size === 0) return result;
  if (Array.isArray(result)) return result.map((r) => restoreTokens(r, plain));
  if (typeof result === "object" && result !== null && typeof (result as { token?: unknown }).token === "string") {
    const token = plain.get((result as { token: string }).token);
    if (token !== undefined) return { ...result, token };
  }
  return result;
}
