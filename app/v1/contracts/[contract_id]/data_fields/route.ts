import { endpointRoute, handle } from "@/lib/api/endpoint";
import { paginatedPreloaded } from "@/lib/api/pagination";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { dataFieldsPreload, preloadedDataFields } from "@/lib/api/json/data-field";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.listDataFields,
    // PostgreSQL wrote `{"count":…,"data":[…]` (TDataFieldList's items, exactly as
    // serializeDataField writes them) as UTF-8 bytes; the envelope's links are appended.
    ({ params, query: pagination, origin, preloaded }) =>
      paginatedPreloaded(preloadedDataFields(preloaded, params.contract_id), { origin, path: `/v1/contracts/${params.contract_id}/data_fields`, ...pagination }),
    // Read with the credentials, in one statement; links under the origin the serializers use.
    { preload: ({ params, query }, { origin }) => dataFieldsPreload(params.contract_id, query, origin) },
  ),
);
