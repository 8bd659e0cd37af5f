// The answered fields of a field table (lib/schemas/field-table.ts) as SQL over one row: what every
// producer in this folder starts from, adding the fields it computes (links, `my_…`).
import { isoTimeSql, jsonRow } from "@/lib/db/sql";
import { columnOf, type TFieldTable, type TSection } from "@/lib/schemas/field-table";

/**
 * The answered fields of the row `alias` as `jsonRow` fields: the top-level ones in table order,
 * `computed` after them, then each section as an object (timestamps as the API writes them),
 * `links` (the `_links` object), and the fields answered `last`.
 */
export function answerFieldsSql(table: TFieldTable, alias: string, { computed = {}, links }: { computed?: Record<string, string>; links?: string } = {}): Record<string, string> {
  const top: Record<string, string> = {};
  const last: Record<string, string> = {};
  const sections: Partial<Record<TSection, Record<string, string>>> = {};
  for (const [name, spec] of Object.entries(table)) {
    if (!spec.answer) continue;
    const column = `${alias}.${columnOf(name, spec)}`;
    const value = spec.sql === "timestamptz" ? isoTimeSql(column) : spec.sql === "date" ? `to_char(${column}, 'YYYY-MM-DD')` : column;
    if (spec.answer.in) (sections[spec.answer.in] ??= {})[spec.answer.name] = value;
    else (spec.answer.last ? last : top)[spec.answer.name] = value;
  }
  const objects = Object.fromEntries(Object.entries(sections).map(([section, fields]) => [section, jsonRow(fields)]));
  return { ...top, ...computed, ...objects, ...(links ? { _links: links } : {}), ...last };
}
