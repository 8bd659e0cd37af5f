import { json, otherMethods, withApi } from "@/lib/api/handler";
import { parseIdParam } from "@/lib/api/request";
import { serializeTemplate } from "@/lib/api/serializers";
import type { TTemplate } from "@/lib/schemas";
import { getTemplate } from "@/lib/services/templates/get-template";

const route = "/v1/templates/{template_id}";

export const GET = withApi(
  async ({ prisma, actor, params, origin }) => {
    const templateId = parseIdParam(params.template_id, "template_id");
    const row = await getTemplate({ db: prisma, actor, templateId });
    return json(serializeTemplate(row, { actor, origin }) satisfies TTemplate);
  },
  { route },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
