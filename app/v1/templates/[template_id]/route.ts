import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { templateTypeAnswers } from "@/lib/api/json/template-type";
import { serializeTemplateDetail } from "@/lib/api/serializers";
import type { TTemplateDetail } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { getTemplate } from "@/lib/services/templates/get-template";
import { updateTemplate } from "@/lib/services/templates/update-template";
import type { TTemplateDetailRow } from "@/lib/services/templates/template-row";
import type { PrismaClient } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";

async function answer(prisma: PrismaClient, actor: Actor, origin: string, row: TTemplateDetailRow) {
  const templateTypes = await templateTypeAnswers(prisma, origin, row.templateTypeId === null ? [] : [row.templateTypeId]);
  return json(serializeTemplateDetail(row, { actor, origin, templateTypes }) satisfies TTemplateDetail);
}

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getTemplate, async ({ prisma, actor, params, origin }) =>
    answer(prisma, actor, origin, await getTemplate({ db: prisma, actor, templateId: params.template_id })),
  ),
  handle(ENDPOINTS.updateTemplate, async ({ prisma, actor, params, body, origin, requestId }) =>
    answer(prisma, actor, origin, await updateTemplate({ db: prisma, actor, templateId: params.template_id, request: body, requestId })),
  ),
);
