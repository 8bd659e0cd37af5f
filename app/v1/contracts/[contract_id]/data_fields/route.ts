import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { paginated } from "@/lib/api/pagination";
import { serializeDataField } from "@/lib/api/serializers";
import type { TDataFieldList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { listDataFields } from "@/lib/services/data-fields/list-data-fields";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listDataFields, async ({ prisma, actor, params, query: pagination, origin }) => {
    const contractId = params.contract_id;
    const { count, rows } = await listDataFields({ db: prisma, actor, contractId, pagination });
    const data = rows.map((row) => serializeDataField(row, { origin }));
    const path = `/v1/contracts/${contractId}/data_fields`;
    return json(paginated({ origin, path, ...pagination, count, data }) satisfies TDataFieldList);
  }),
);
