import { json, otherMethods, withApi } from "@/lib/api/handler";
import { paginated, parsePagination } from "@/lib/api/pagination";
import { serializeTemplateType } from "@/lib/api/serializers";
import type { TTemplateTypeList } from "@/lib/schemas";
import { listTemplateTypes } from "@/lib/services/template-types/list-template-types";

const route = "/v1/template_types";

export const GET = withApi(
  async ({ prisma, url, origin }) => {
    const pagination = parsePagination(url);
    const { count, rows } = await listTemplateTypes({ db: prisma, pagination });
    const data = rows.map((row) => serializeTemplateType(row, { origin }));
    return json(paginated({ origin, path: route, ...pagination, count, data }) satisfies TTemplateTypeList);
  },
  { route },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
