import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { paginated } from "@/lib/api/pagination";
import { serializeDataField } from "@/lib/api/serializers";
import type { TDataFieldList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { dataFieldsPreload, preloadedDataFields } from "@/lib/services/data-fields/data-field-sql";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.listDataFields,
    ({ params, query: pagination, origin, preloaded }) => {
      const contractId = params.contract_id;
      const { count, rows } = preloadedDataFields(preloaded, contractId);
      const data = rows.map((row) => serializeDataField(row, { origin }));
      const path = `/v1/contracts/${contractId}/data_fields`;
      return json(paginated({ origin, path, ...pagination, count, data }) satisfies TDataFieldList);
    },
    // Read with the credentials, in one statement.
    { preload: ({ params, query }) => dataFieldsPreload(params.contract_id, query) },
  ),
);
