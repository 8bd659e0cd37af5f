import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { paginated } from "@/lib/api/pagination";
import { templateTypeAnswers } from "@/lib/api/json/template-type";
import { serializeTemplate } from "@/lib/api/serializers";
import type { TTemplateList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { listTemplates } from "@/lib/services/templates/list-templates";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listTemplates, async ({ prisma, actor, query, origin }) => {
    const { count, rows } = await listTemplates({ db: prisma, actor, query });
    const { limit, offset, workspace_id } = query;
    const templateTypes = await templateTypeAnswers(prisma, origin, rows.flatMap((row) => (row.templateTypeId === null ? [] : [row.templateTypeId])));
    const data = rows.map((row) => serializeTemplate(row, { actor, origin, templateTypes }));
    return json(
      paginated({ origin, path: ENDPOINTS.listTemplates.path, query: { workspace_id }, limit, offset, count, data }) satisfies TTemplateList,
    );
  }),
);
