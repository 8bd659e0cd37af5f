import { answerPathOf, jsonValueOf, type TFieldTable } from "@/lib/schemas/field-table";
import { isoTime } from "./time";

/**
 * The answered fields of `row` by their answer names (sections nested), as the API writes them
 * (timestamps by `isoTime`): the answer of a resource whose table (lib/schemas/field-table.ts) is
 * answered from JavaScript rather than by PostgreSQL.
 */
export function answerValuesOf(table: TFieldTable, row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const answer: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    if (!spec.answer) continue;
    const value = row[name] ?? null;
    const [first, second] = answerPathOf(name, spec) as [string, string?];
    const written = value instanceof Date && spec.sql === "timestamptz" ? isoTime(value) : jsonValueOf(spec, value);
    if (second === undefined) answer[first] = written;
    else ((answer[first] ??= {}) as Record<string, unknown>)[second] = written;
  }
  return answer;
}
