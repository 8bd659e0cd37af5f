// Plain SQL for the hottest reads, sent straight to the `pg` pool under Prisma (docs/performance.md
// "One round trip"): one statement answers who the caller is and the rows they asked for, and
// PostgreSQL assembles the rows as JSON, so a request costs one round trip and no ORM work. Every
// other query goes through Prisma. Rows come back in the shape Prisma would give (camelCase keys,
// `Date`s), so the same serializers answer either way; test/services/hot-reads.test.ts holds the
// two equal.
import type pg from "pg";
import { poolOf, type PrismaClient } from "@/lib/db";

/** Numbered placeholders for one statement: `p(value)` adds a value and answers `$n`. */
export class SqlParams {
  readonly values: unknown[] = [];
  /** A placeholder for `value`, with an SQL type cast when given (`p(3, "int")` → `$4::int`). */
  p = (value: unknown, type?: string): string => {
    this.values.push(value);
    return type ? `$${this.values.length}::${type}` : `$${this.values.length}`;
  };
}

/** A statement's first row (or undefined), on the pool under `prisma`. */
export async function queryOne<T extends Record<string, unknown>>(prisma: PrismaClient, text: string, values: unknown[]): Promise<T | undefined> {
  const result = await (poolOf(prisma) as pg.Pool).query<T>(text, values);
  return result.rows[0];
}

/**
 * `json_build_object('id', alias.id, 'partyId', alias.party_id, …)` from a map of Prisma field
 * names to columns, plus `more` fields given as SQL expressions (relations). Maps are declared
 * `satisfies Record<keyof typeof SOME_SELECT, string>`, so a field added to a Prisma select without
 * its column here does not compile.
 */
export function jsonColumns(alias: string, columns: Record<string, string>, more: Record<string, string> = {}): string {
  const fields = [
    ...Object.entries(columns).map(([field, column]) => `'${field}', ${alias}.${column}`),
    ...Object.entries(more).map(([field, expression]) => `'${field}', ${expression}`),
  ];
  return `json_build_object(${fields.join(", ")})`;
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
