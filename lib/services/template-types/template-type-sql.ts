// GET /v1/template_types in the authentication's statement (lib/db/sql.ts `TPreload`): the page and
// count `listTemplateTypes` reads, written by PostgreSQL as the answer's JSON, each item exactly as
// `serializeTemplateType` writes it, and sent as UTF-8 bytes (test/services/hot-reads.test.ts).
import { isoTimeSql, jsonRow, listHeadSql, type TPreload } from "@/lib/db/sql";
import type { TPagination } from "@/lib/schemas";

/**
 * A page of every template type (in id order; all callers see all of them) as the start of the
 * answer, `{"count":…,"data":[…]`, with links under `linkBase` (the origin without a trailing slash).
 */
export function templateTypesPreload({ limit, offset }: TPagination, linkBase: string): TPreload {
  return ({ p }) => {
    const item = jsonRow({
      id: "t.id",
      name: "t.name",
      description: "t.description",
      extension_type: "t.extension_type",
      active: "t.active",
      created_time: isoTimeSql("t.created_at"),
      updated_time: isoTimeSql("t.updated_at"),
      _links: jsonRow({ self: jsonRow({ href: `${p(linkBase, "text")} || '/v1/template_types/' || t.id` }) }),
    });
    return listHeadSql(
      "(SELECT count(*) FROM template_types)",
      `(SELECT json_agg(${item} ORDER BY t.id)
          FROM (SELECT id FROM template_types ORDER BY id LIMIT ${p(limit === "all" ? null : limit, "int")} OFFSET ${p(offset, "int")}) k
          JOIN template_types t ON t.id = k.id)`,
    );
  };
}
