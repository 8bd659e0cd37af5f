import { DomainError } from "@/lib/domain/errors";
import type { Tx } from "@/lib/db";
import type { TemplateType } from "@/lib/generated/prisma/client";

export interface GetTemplateTypeOptions {
  db: Tx;
  templateTypeId: number;
}

export async function getTemplateType({ db, templateTypeId }: GetTemplateTypeOptions): Promise<TemplateType> {
  const row = await db.templateType.findUnique({ where: { id: templateTypeId } });
  if (!row) throw new DomainError("resource_not_found", `Template type ${templateTypeId} does not exist.`);
  return row;
}
