import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { paginated } from "@/lib/api/pagination";
import { serializeTemplateType } from "@/lib/api/serializers";
import type { TTemplateTypeList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { listTemplateTypes } from "@/lib/services/template-types/list-template-types";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listTemplateTypes, async ({ prisma, query: pagination, origin }) => {
    const { count, rows } = await listTemplateTypes({ db: prisma, pagination });
    const data = rows.map((row) => serializeTemplateType(row, { origin }));
    return json(paginated({ origin, path: ENDPOINTS.listTemplateTypes.path, ...pagination, count, data }) satisfies TTemplateTypeList);
  }),
);
