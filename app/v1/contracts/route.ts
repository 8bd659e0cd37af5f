import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { paginated } from "@/lib/api/pagination";
import { serializeContractListItem } from "@/lib/api/serializers";
import type { TContractList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { contractListPreload, preloadedContractList } from "@/lib/services/contracts/contract-sql";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.listContracts,
    ({ query, origin, preloaded }) => {
      const { count, rows } = preloadedContractList(preloaded);
      const { limit, offset, workspace_id, state, q, sort } = query;
      const data = rows.map((row) => serializeContractListItem(row, { origin }));
      // Links carry the filters and the effective sort, so following `next` continues the same list.
      const links = { workspace_id, state, q, sort };
      return json(paginated({ origin, path: ENDPOINTS.listContracts.path, query: links, limit, offset, count, data }) satisfies TContractList);
    },
    // Read with the credentials, in one statement.
    { preload: ({ query }) => contractListPreload(query) },
  ),
);
