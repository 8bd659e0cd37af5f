import { json, otherMethods, withApi } from "@/lib/api/handler";
import { paginated, parsePagination } from "@/lib/api/pagination";
import { parseIdParam } from "@/lib/api/request";
import { serializeDataField } from "@/lib/api/serializers";
import type { TDataFieldList } from "@/lib/schemas";
import { listDataFields } from "@/lib/services/data-fields/list-data-fields";

const route = "/v1/contracts/{contract_id}/data_fields";

export const GET = withApi(
  async ({ prisma, actor, params, url, origin }) => {
    const contractId = parseIdParam(params.contract_id, "contract_id");
    const pagination = parsePagination(url, { allowAll: true });
    const { count, rows } = await listDataFields({ db: prisma, actor, contractId, pagination });
    const data = rows.map((row) => serializeDataField(row, { origin }));
    const path = `/v1/contracts/${contractId}/data_fields`;
    return json(paginated({ origin, path, ...pagination, count, data }) satisfies TDataFieldList);
  },
  { route },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
