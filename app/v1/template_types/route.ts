import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonListWithLinks } from "@/lib/api/handler";
import { paginated } from "@/lib/api/pagination";
import { absoluteUrl } from "@/lib/http/origin";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { preloadedTemplateTypes, templateTypesPreload } from "@/lib/services/template-types/template-type-sql";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.listTemplateTypes,
    ({ query: pagination, origin, preloaded }) => {
      // PostgreSQL wrote `{"count":…,"data":[…]` (TTemplateTypeList's items, exactly as
      // serializeTemplateType writes them) as UTF-8 bytes; the envelope's links are appended here.
      const { count, head } = preloadedTemplateTypes(preloaded);
      const { _links } = paginated({ origin, path: ENDPOINTS.listTemplateTypes.path, ...pagination, count, data: [] });
      return jsonListWithLinks(head, _links);
    },
    // Read with the credentials, in one statement; links under the origin the serializers use.
    { preload: ({ query }, { origin }) => templateTypesPreload(query, absoluteUrl(origin, "/").replace(/\/$/, "")) },
  ),
);
