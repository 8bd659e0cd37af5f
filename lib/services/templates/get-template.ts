import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { TEMPLATE_DETAIL_SELECT, type TTemplateDetailRow } from "@/lib/services/templates/template-row";
import type { Tx } from "@/lib/db";

import { visibleTemplatesWhere } from "./template-visibility";

export interface GetTemplateOptions {
  db: Tx;
  actor: Actor;
  templateId: number;
}

/** The template, if the actor may use it somewhere; else the same 404 as a template that does not exist. */
export async function getTemplate({ db, actor, templateId }: GetTemplateOptions): Promise<TTemplateDetailRow> {
  const row = await db.template.findFirst({
    where: { AND: [{ id: templateId }, visibleTemplatesWhere(actor)] },
    select: TEMPLATE_DETAIL_SELECT,
  });
  if (!row) throw new DomainError("resource_not_found", `Template ${templateId} does not exist.`);
  return row;
}
