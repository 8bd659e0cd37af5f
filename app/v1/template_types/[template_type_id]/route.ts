import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { serializeTemplateType } from "@/lib/api/serializers";
import type { TTemplateType } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { getTemplateType } from "@/lib/services/template-types/get-template-type";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getTemplateType, async ({ prisma, params, origin }) => {
    const row = await getTemplateType({ db: prisma, templateTypeId: params.template_type_id });
    return json(serializeTemplateType(row, { origin }) satisfies TTemplateType);
  }),
);
