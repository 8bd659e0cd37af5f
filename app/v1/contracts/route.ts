import { endpointRoute, handle } from "@/lib/api/endpoint";
import { paginatedPreloaded } from "@/lib/api/pagination";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { contractListPreload } from "@/lib/api/json/contract";
import { contractSortOf } from "@/lib/schemas/contract";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.listContracts,
    ({ query, origin, preloaded }) => {
      // PostgreSQL wrote `{"count":…,"data":[…]` (TContractList's items, exactly as
      // serializeContractListItem writes them) as UTF-8 bytes; the envelope's links are appended.
      const { limit, offset, sort: _sort, ...filters } = query;
      // Links carry the filters and the effective sort, so following `next` continues the same list.
      return paginatedPreloaded(preloaded, { origin, path: ENDPOINTS.listContracts.path, query: { ...filters, sort: contractSortOf(query) }, limit, offset });
    },
    // Read with the credentials, in one statement; links under the origin the serializers use.
    { preload: ({ query }, { origin }) => contractListPreload(query, origin) },
  ),
);
