import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { templateTypeAnswers } from "@/lib/api/json/template-type";
import { serializeTemplate } from "@/lib/api/serializers";
import type { TTemplate } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { getTemplate } from "@/lib/services/templates/get-template";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getTemplate, async ({ prisma, actor, params, origin }) => {
    const row = await getTemplate({ db: prisma, actor, templateId: params.template_id });
    const templateTypes = await templateTypeAnswers(prisma, origin, row.templateTypeId === null ? [] : [row.templateTypeId]);
    return json(serializeTemplate(row, { actor, origin, templateTypes }) satisfies TTemplate);
  }),
);
