import { pageArgs } from "@/lib/services/page-args";
import type { Tx } from "@/lib/db";
import type { TemplateType } from "@/lib/generated/prisma/client";
import type { TPagination } from "@/lib/schemas";

export interface ListTemplateTypesOptions {
  db: Tx;
  pagination: TPagination;
}

/** Every template type: they name kinds of documents, not anything of a workspace, so all may read them. */
export async function listTemplateTypes({ db, pagination }: ListTemplateTypesOptions): Promise<{ count: number; rows: TemplateType[] }> {
  const [count, rows] = await Promise.all([
    db.templateType.count(),
    db.templateType.findMany({ orderBy: { id: "asc" }, ...pageArgs(pagination) }),
  ]);
  return { count, rows };
}
