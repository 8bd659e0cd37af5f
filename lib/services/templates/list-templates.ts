import type { Actor } from "@/lib/domain/actor";
import { pageArgs } from "@/lib/services/page-args";
import { TEMPLATE_SELECT, type TTemplateRow } from "@/lib/services/templates/template-row";
import type { Tx } from "@/lib/db";
import type { TTemplateListQuery } from "@/lib/schemas/template-list-query";

import { visibleTemplatesWhere } from "./template-visibility";

export interface ListTemplatesOptions {
  db: Tx;
  actor: Actor;
  query: TTemplateListQuery;
}

/** Templates usable in a workspace the actor sees; `workspace_id` narrows to one workspace. */
export async function listTemplates({ db, actor, query }: ListTemplatesOptions): Promise<{ count: number; rows: TTemplateRow[] }> {
  const where = visibleTemplatesWhere(actor, query.workspace_id);
  const [count, rows] = await Promise.all([
    db.template.count({ where }),
    db.template.findMany({ where, select: TEMPLATE_SELECT, orderBy: { id: "asc" }, ...pageArgs(query) }),
  ]);
  return { count, rows };
}
