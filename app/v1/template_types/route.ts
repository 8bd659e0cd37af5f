import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { paginated } from "@/lib/api/pagination";
import { serializeTemplateType } from "@/lib/api/serializers";
import type { TTemplateTypeList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { preloadedTemplateTypes, templateTypesPreload } from "@/lib/services/template-types/template-type-sql";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.listTemplateTypes,
    ({ query: pagination, origin, preloaded }) => {
      const { count, rows } = preloadedTemplateTypes(preloaded);
      const data = rows.map((row) => serializeTemplateType(row, { origin }));
      return json(paginated({ origin, path: ENDPOINTS.listTemplateTypes.path, ...pagination, count, data }) satisfies TTemplateTypeList);
    },
    // Read with the credentials, in one statement.
    { preload: ({ query }) => templateTypesPreload(query) },
  ),
);
