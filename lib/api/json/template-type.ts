// The template type answer (TTemplateType), written by PostgreSQL: the one producer of that shape,
// alone, in the list (sent as UTF-8 bytes) or inside a template.
import type { Tx } from "@/lib/db";
import { isoTimeSql, jsonRow, listHeadSql, SqlParams, textByPlaceholders, type TPreload } from "@/lib/db/sql";
import { DomainError } from "@/lib/domain/errors";
import { linkBase as linkBaseOf } from "@/lib/http/origin";
import type { TPagination, TTemplateType } from "@/lib/schemas";
import { pageFormFor, type TPageForm } from "@/lib/services/page-args";

/** The template type row `t` as a JSON value, with links under `linkBase` (an SQL text expression: the origin without a trailing slash). */
function templateTypeJsonSql(linkBase: string): string {
  return jsonRow({
    id: "t.id",
    name: "t.name",
    description: "t.description",
    extension_type: "t.extension_type",
    active: "t.active",
    created_time: isoTimeSql("t.created_at"),
    updated_time: isoTimeSql("t.updated_at"),
    _links: jsonRow({ self: jsonRow({ href: `${linkBase} || '/v1/template_types/' || t.id` }) }),
  });
}

/**
 * A page of every template type (in id order; all callers see all of them) as the start of the
 * answer, `{"count":…,"data":[…]`, with links under `linkBase` (the origin without a trailing slash).
 */
export function templateTypesPreload({ limit, offset }: TPagination, linkBase: string, pageForm: TPageForm = pageFormFor(offset)): TPreload {
  const sql = pageForm === "direct" ? TEMPLATE_TYPES_DIRECT_SQL : TEMPLATE_TYPES_DEFERRED_SQL;
  return ({ p }) => sql(p(linkBase, "text"), p(limit === "all" ? null : limit, "int"), p(offset, "int"));
}

const templateTypesSql = (pageForm: TPageForm) => (linkBase: string, limit: string, offset: string) => {
  const item = templateTypeJsonSql(linkBase);
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

/** GET /v1/template_types/{id}: the answer, read with the credentials, or null (`preloadedTemplateType`). */
export function templateTypePreload(id: number, origin: string): TPreload {
  return ({ p }) => TEMPLATE_TYPE_SQL(p(linkBaseOf(origin), "text"), p(id, "int"));
}

const TEMPLATE_TYPE_SQL = textByPlaceholders((linkBase: string, id: string) => `(SELECT ${templateTypeJsonSql(linkBase)}::text FROM template_types t WHERE t.id = ${id})`);

/** The preloaded answer, or the 404. */
export function preloadedTemplateType(preloaded: unknown, id: number): string {
  if (typeof preloaded !== "string") throw new DomainError("resource_not_found", `Template type ${id} does not exist.`);
  return preloaded;
}

/** The answers of the template types `ids` (inside the templates that name them), by id. */
export async function templateTypeAnswers(db: Tx, origin: string, ids: readonly number[]): Promise<Map<number, TTemplateType>> {
  if (ids.length === 0) return new Map();
  const q = new SqlParams();
  const text = TEMPLATE_TYPES_BY_IDS_SQL(q.p(linkBaseOf(origin), "text"), q.p([...new Set(ids)], "int[]"));
  const rows = await db.$queryRawUnsafe<{ id: number; answer: TTemplateType }[]>(text, ...q.values);
  return new Map(rows.map((row) => [row.id, row.answer]));
}

const TEMPLATE_TYPES_BY_IDS_SQL = textByPlaceholders((linkBase: string, ids: string) => `SELECT t.id, ${templateTypeJsonSql(linkBase)} AS answer FROM template_types t WHERE t.id = ANY(${ids})`);
