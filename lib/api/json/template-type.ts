// GET /v1/template_types in the authentication's statement (lib/db/sql.ts `TPreload`): the page and
// count `listTemplateTypes` reads, written by PostgreSQL as the answer's JSON, each item exactly as
// `serializeTemplateType` writes it, and sent as UTF-8 bytes (test/services/hot-reads.test.ts).
import { isoTimeSql, jsonRow, listHeadSql, textByPlaceholders, type TPreload } from "@/lib/db/sql";
import type { TPagination } from "@/lib/schemas";
import { pageFormFor, type TPageForm } from "@/lib/services/page-args";

/**
 * A page of every template type (in id order; all callers see all of them) as the start of the
 * answer, `{"count":…,"data":[…]`, with links under `linkBase` (the origin without a trailing slash).
 */
export function templateTypesPreload({ limit, offset }: TPagination, linkBase: string, pageForm: TPageForm = pageFormFor(offset)): TPreload {
  const sql = pageForm === "direct" ? TEMPLATE_TYPES_DIRECT_SQL : TEMPLATE_TYPES_DEFERRED_SQL;
  return ({ p }) => sql(p(linkBase, "text"), p(limit === "all" ? null : limit, "int"), p(offset, "int"));
}

const templateTypesSql = (pageForm: TPageForm) => (linkBase: string, limit: string, offset: string) => {
  const item = jsonRow({
    id: "t.id",
    name: "t.name",
    description: "t.description",
    extension_type: "t.extension_type",
    active: "t.active",
    created_time: isoTimeSql("t.created_at"),
    updated_time: isoTimeSql("t.updated_at"),
    _links: jsonRow({ self: jsonRow({ href: `${linkBase} || '/v1/template_types/' || t.id` }) }),
  });
  return listHeadSql(
    "(SELECT count(*) FROM template_types)",
    // Near the start, the rows themselves. Further on, the page's ids from the index, then each
    // row by its id: a plain join let the planner hash all 20,000 rows of the bench's table for
    // 100 of them (19.5 against 5.4 ms); `LIMIT 1` keeps the lookup per id.
    pageForm === "direct"
      ? `(SELECT json_agg(${item} ORDER BY t.id)
          FROM (SELECT * FROM template_types ORDER BY id LIMIT ${limit} OFFSET ${offset}) t)`
      : `(SELECT json_agg(${item} ORDER BY t.id)
          FROM (SELECT id FROM template_types ORDER BY id LIMIT ${limit} OFFSET ${offset}) k
          CROSS JOIN LATERAL (SELECT * FROM template_types t WHERE t.id = k.id LIMIT 1) t)`,
  );
};
const TEMPLATE_TYPES_DIRECT_SQL = textByPlaceholders(templateTypesSql("direct"));
const TEMPLATE_TYPES_DEFERRED_SQL = textByPlaceholders(templateTypesSql("deferred"));
