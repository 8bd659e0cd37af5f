import { json, otherMethods, withApi } from "@/lib/api/handler";
import { paginated } from "@/lib/api/pagination";
import { parseQuery } from "@/lib/api/request";
import { serializeTemplate } from "@/lib/api/serializers";
import type { TTemplateList } from "@/lib/schemas";
import { ZTemplateListQuerySchema } from "@/lib/schemas/template-list-query";
import { listTemplates } from "@/lib/services/templates/list-templates";

const route = "/v1/templates";

export const GET = withApi(
  async ({ prisma, actor, url, origin }) => {
    const query = parseQuery(url, ZTemplateListQuerySchema);
    const { count, rows } = await listTemplates({ db: prisma, actor, query });
    const { limit, offset, workspace_id } = query;
    const data = rows.map((row) => serializeTemplate(row, { actor, origin }));
    return json(paginated({ origin, path: route, query: { workspace_id }, limit, offset, count, data }) satisfies TTemplateList);
  },
  { route },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
