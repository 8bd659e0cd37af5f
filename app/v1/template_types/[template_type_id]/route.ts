import { json, otherMethods, withApi } from "@/lib/api/handler";
import { parseIdParam } from "@/lib/api/request";
import { serializeTemplateType } from "@/lib/api/serializers";
import type { TTemplateType } from "@/lib/schemas";
import { getTemplateType } from "@/lib/services/template-types/get-template-type";

const route = "/v1/template_types/{template_type_id}";

export const GET = withApi(
  async ({ prisma, params, origin }) => {
    const templateTypeId = parseIdParam(params.template_type_id, "template_type_id");
    const row = await getTemplateType({ db: prisma, templateTypeId });
    return json(serializeTemplateType(row, { origin }) satisfies TTemplateType);
  },
  { route },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
