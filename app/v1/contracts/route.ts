import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonListWithLinks } from "@/lib/api/handler";
import { paginated } from "@/lib/api/pagination";
import { absoluteUrl } from "@/lib/http/origin";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { contractListPreload, preloadedContractList } from "@/lib/services/contracts/contract-sql";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.listContracts,
    ({ query, origin, preloaded }) => {
      // PostgreSQL wrote `{"count":…,"data":[…]` (TContractList's items, exactly as
      // serializeContractListItem writes them) as UTF-8 bytes; the envelope's links are appended here.
      const { count, head } = preloadedContractList(preloaded);
      const { limit, offset, workspace_id, state, q, sort } = query;
      // Links carry the filters and the effective sort, so following `next` continues the same list.
      const links = { workspace_id, state, q, sort };
      const { _links } = paginated({ origin, path: ENDPOINTS.listContracts.path, query: links, limit, offset, count, data: [] });
      return jsonListWithLinks(head, _links);
    },
    // Read with the credentials, in one statement; links under the origin the serializers use.
    { preload: ({ query }, { origin }) => contractListPreload(query, absoluteUrl(origin, "/").replace(/\/$/, "")) },
  ),
);
