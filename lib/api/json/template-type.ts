// The template type answer (TTemplateType), written by PostgreSQL: the one producer of that shape,
// alone, in the list (sent as UTF-8 bytes) or inside a template.
import type { Tx } from "@/lib/db";
import { ANSWER_ARG, answerArgs, jsonRow, listHeadSql, listPreload, type TPreload } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { DomainError } from "@/lib/domain/errors";
import type { TPagination, TTemplateType } from "@/lib/schemas";
import { TEMPLATE_TYPE_FIELDS } from "@/lib/schemas/template-type";
import { answerFieldsSql } from "@/lib/api/json/answer-sql";
import { pageFormFor, type TPageForm } from "@/lib/services/page-form-for";

/** The template type row `t` (lib/schemas/template-type.ts) as a JSON value, with links under `arg.base` (lib/db/sql.ts `ANSWER_ARG`). */
function templateTypeJsonSql(): string {
  return jsonRow(answerFieldsSql(TEMPLATE_TYPE_FIELDS, "t", { links: jsonRow({ self: jsonRow({ href: `${ANSWER_ARG.base} || '/v1/template_types/' || t.id` }) }) }));
}

const TEMPLATE_TYPE = Prisma.raw(templateTypeJsonSql());

/**
 * A page of every template type (in id order; all callers see all of them) as the start of the
 * answer, `{"count":…,"data":[…]`, with links under `origin`.
 */
export function templateTypesPreload({ limit, offset }: TPagination, origin: string, pageForm: TPageForm = pageFormFor(offset)): TPreload {
  const page = Prisma.sql`LIMIT ${limit === "all" ? null : limit}::int OFFSET ${offset}::int`;
  const items =
    // Near the start, the rows themselves. Further on, the page's ids from the index, then each
    // row by its id: a plain join let the planner hash all 20,000 rows of the bench's table for
    // 100 of them (19.5 against 5.4 ms); `LIMIT 1` keeps the lookup per id.
    pageForm === "direct"
      ? Prisma.sql`(SELECT json_agg(${TEMPLATE_TYPE} ORDER BY t.id)
          FROM (SELECT * FROM template_types ORDER BY id ${page}) t)`
      : Prisma.sql`(SELECT json_agg(${TEMPLATE_TYPE} ORDER BY t.id)
          FROM (SELECT id FROM template_types ORDER BY id ${page}) k
          CROSS JOIN LATERAL (SELECT * FROM template_types t WHERE t.id = k.id LIMIT 1) t)`;
  return listPreload(Prisma.sql`(SELECT ${listHeadSql(TEMPLATE_TYPES_COUNT, items)} FROM ${answerArgs(origin, null)})`);
}

const TEMPLATE_TYPES_COUNT = Prisma.sql`(SELECT count(*) FROM template_types)`;

/** GET /v1/template_types/{id}: the answer, read with the credentials, or null (`preloadedTemplateType`). */
export function templateTypePreload(id: number, origin: string): TPreload {
  return Prisma.sql`(SELECT ${TEMPLATE_TYPE}::text FROM template_types t, ${answerArgs(origin, null)} WHERE t.id = ${id}::int)`;
}

/** The preloaded answer, or the 404. */
export function preloadedTemplateType(preloaded: unknown, id: number): string {
  if (typeof preloaded !== "string") throw new DomainError("resource_not_found", `Template type ${id} does not exist.`);
  return preloaded;
}

/** The answers of the template types `ids` (inside the templates that name them), by id. */
export async function templateTypeAnswers(db: Tx, origin: string, ids: readonly number[]): Promise<Map<number, TTemplateType>> {
  if (ids.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: number; answer: TTemplateType }[]>`SELECT t.id, ${TEMPLATE_TYPE} AS answer
    FROM template_types t, ${answerArgs(origin, null)} WHERE t.id = ANY(${[...new Set(ids)]}::int[])`;
  return new Map(rows.map((row) => [row.id, row.answer]));
}
