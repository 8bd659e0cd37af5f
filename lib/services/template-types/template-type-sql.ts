// GET /v1/template_types in the authentication's statement (lib/db/sql.ts `TPreload`): the page and
// count `listTemplateTypes` reads, assembled by PostgreSQL (test/services/hot-reads.test.ts).
import { jsonColumns, reviveDates, type TPreload } from "@/lib/db/sql";
import type { TemplateType } from "@/lib/generated/prisma/client";
import type { TPagination } from "@/lib/schemas";

/** The column of each `TemplateType` field. */
const TEMPLATE_TYPE_COLUMNS = {
  id: "id",
  name: "name",
  description: "description",
  extensionType: "extension_type",
  active: "active",
  createdAt: "created_at",
  updatedAt: "updated_at",
} as const satisfies Record<keyof TemplateType, string>;

/** A page of every template type (in id order; all callers see all of them) and their count. */
export function templateTypesPreload({ limit, offset }: TPagination): TPreload {
  return ({ p }) => `json_build_object(
      'count', (SELECT count(*) FROM template_types),
      'rows', COALESCE((
        SELECT json_agg(${jsonColumns("t", TEMPLATE_TYPE_COLUMNS)} ORDER BY t.id)
          FROM (SELECT * FROM template_types ORDER BY id LIMIT ${p(limit === "all" ? null : limit, "int")} OFFSET ${p(offset, "int")}) t
      ), '[]'))`;
}

export function preloadedTemplateTypes(preloaded: unknown): { count: number; rows: TemplateType[] } {
  return reviveDates(preloaded as { count: number; rows: TemplateType[] });
}
