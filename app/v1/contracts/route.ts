import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { paginated } from "@/lib/api/pagination";
import { serializeContractListItem } from "@/lib/api/serializers";
import type { TContractList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { listContracts } from "@/lib/services/contracts/list-contracts";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listContracts, async ({ prisma, actor, query, origin }) => {
    const { count, rows } = await listContracts({ db: prisma, actor, query });
    const { limit, offset, workspace_id, state, q, sort } = query;
    const data = rows.map((row) => serializeContractListItem(row, { origin }));
    // Links carry the filters and the effective sort, so following `next` continues the same list.
    const links = { workspace_id, state, q, sort };
    return json(paginated({ origin, path: ENDPOINTS.listContracts.path, query: links, limit, offset, count, data }) satisfies TContractList);
  }),
);
