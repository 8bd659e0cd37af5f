import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/response";
import { preloadedTemplateType, templateTypePreload } from "@/lib/api/json/template-type";
import { ENDPOINTS } from "@/lib/schemas/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.getTemplateType,
    ({ params, preloaded }) => jsonText(preloadedTemplateType(preloaded, params.template_type_id)),
    // Read in the credentials' statement.
    { preload: ({ params }, { origin }) => templateTypePreload(params.template_type_id, origin) },
  ),
);
