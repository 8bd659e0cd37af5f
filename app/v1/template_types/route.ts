import { endpointRoute, handle } from "@/lib/api/endpoint";
import { paginatedPreloaded } from "@/lib/api/pagination";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { templateTypesPreload } from "@/lib/api/json/template-type";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.listTemplateTypes,
    // PostgreSQL wrote `{"count":…,"data":[…]` (TTemplateTypeList's items, exactly as
    // serializeTemplateType writes them) as UTF-8 bytes; the envelope's links are appended.
    ({ query: pagination, origin, preloaded }) => paginatedPreloaded(preloaded, { origin, path: ENDPOINTS.listTemplateTypes.path, ...pagination }),
    // Read with the credentials, in one statement; links under the origin the serializers use.
    { preload: ({ query }, { origin }) => templateTypesPreload(query, origin) },
  ),
);
