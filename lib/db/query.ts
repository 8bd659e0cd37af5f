// Running a statement: plain SQL sent straight to the `pg` pool under Prisma (lib/db/pool.ts), for
// the hottest reads (docs/performance.md "One round trip"): one statement answers who the caller is
// and the rows they asked for, and PostgreSQL assembles the rows as JSON, so a request costs one
// round trip and no ORM work. Every other query goes through Prisma. Rows come back in the shape
// Prisma would give (camelCase keys, `Date`s), so the same serializers answer either way;
// test/services/hot-reads.test.ts holds the two equal. The statements are written with lib/db/sql.ts.
import { createHash } from "node:crypto";
import type pg from "pg";
import type { PrismaClient, Tx } from "@/lib/db";
import { poolOf, sharesOneSession } from "@/lib/db/pool";
import type { Sql } from "@/lib/db/sql";

// Statements are prepared once per connection (named), so PostgreSQL plans a hot statement once
// rather than on every request. Their texts come from code, never from input (every value is a
// parameter), so there are only as many as the code can build; the contracts list builds one per
// combination of filters, order and page form (128), and the participant update one per
// combination of attributes sent (hundreds are possible, few are used), so a client can use up
// the names of a process, after which new texts are sent unnamed. A text is found by its length and
// then compared: a string's hash reads every character (3 µs for a 3 KB statement built anew by each
// request), a comparison with the one text of that length is a memory compare.
const statementsByLength = new Map<number, { text: string; name: string }[]>();
let namedStatements = 0;
const MAX_NAMED = 500;

/** The statement's name and its first text (the same characters: pg compares them by identity first), or none. */
function namedStatement(text: string): { text: string; name: string } | undefined {
  const sameLength = statementsByLength.get(text.length);
  if (sameLength) {
    for (const known of sameLength) if (known.text === text) return known;
  }
  if (namedStatements >= MAX_NAMED) return undefined; // then planned each time: slower, never wrong
  const known = { text, name: `hot_${createHash("sha256").update(text).digest("hex").slice(0, 24)}` };
  namedStatements++;
  if (sameLength) sameLength.push(known);
  else statementsByLength.set(text.length, [known]);
  return known;
}

// The embedded database serves every connection in one session, where a name prepared by one
// connection already exists for the next (42P05): such a pool sends its statements unnamed. A pool
// made for it says so (`sharesOneSession`); another one is found out at its first 42P05.
const unnamedPools = new WeakSet<pg.Pool>();
const DUPLICATE_PREPARED_STATEMENT = "42P05";

const preparesOn = (pool: pg.Pool): boolean => !unnamedPools.has(pool) && !sharesOneSession(pool);

/** A statement's first row (or undefined), on the pool under `prisma`. */
export async function queryOne<T extends Record<string, unknown>>(prisma: PrismaClient, query: Sql): Promise<T | undefined> {
  return (await queryRows<T>(prisma, query))[0];
}

/** A statement's rows, on the pool under `prisma`, prepared under a name where the pool can. */
export async function queryRows<T extends Record<string, unknown>>(prisma: PrismaClient, query: Sql): Promise<T[]> {
  const pool = poolOf(prisma);
  const { text, values } = query;
  if (preparesOn(pool)) {
    try {
      const named = namedStatement(text);
      return (await pool.query<T>(named ? { text: named.text, values, name: named.name } : { text, values })).rows;
    } catch (error) {
      if ((error as { code?: string }).code !== DUPLICATE_PREPARED_STATEMENT) throw error;
      unnamedPools.add(pool);
    }
  }
  return (await pool.query<T>(text, values)).rows;
}

/**
 * The `answer` column of a statement that reads one row just written (by its id), on `db`: inside
 * a transaction it sees that transaction's writes. `what` names the row in the error, since a row
 * written a moment ago that is gone is a bug, not a client's mistake.
 */
export async function answerOf(db: Tx, query: Sql, what: string): Promise<string> {
  const [row] = await db.$queryRaw<{ answer: string }[]>(query);
  if (!row) throw new Error(`${what} vanished before its answer was written`);
  return row.answer;
}

/**
 * Turns the timestamps of rows assembled by PostgreSQL back into `Date`s, in place, as Prisma
 * gives them: every Prisma `DateTime` field of this schema is named `…At`, and no other field is.
 */
export function reviveDates<T>(value: T): T {
  if (Array.isArray(value)) {
    for (const item of value) reviveDates(item);
  } else if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const key in record) {
      const field = record[key];
      if (key.endsWith("At")) {
        if (typeof field === "string") record[key] = new Date(field);
      } else if (field !== null && typeof field === "object") {
        reviveDates(field);
      }
    }
  }
  return value;
}
