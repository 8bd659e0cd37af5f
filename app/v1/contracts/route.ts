import { json, otherMethods, withApi } from "@/lib/api/handler";
import { paginated } from "@/lib/api/pagination";
import { parseQuery } from "@/lib/api/request";
import { serializeContractListItem } from "@/lib/api/serializers";
import { ZContractListQuerySchema, type TContractList } from "@/lib/schemas";
import { listContracts } from "@/lib/services/contracts/list-contracts";

const route = "/v1/contracts";

export const GET = withApi(
  async ({ prisma, actor, url, origin }) => {
    const query = parseQuery(url, ZContractListQuerySchema);
    const { count, rows } = await listContracts({ db: prisma, actor, query });
    const { limit, offset, workspace_id, state, sort } = query;
    const data = rows.map((row) => serializeContractListItem(row, { origin }));
    // Links carry the filters and the effective sort, so following `next` continues the same list.
    const links = { workspace_id, state, sort };
    return json(paginated({ origin, path: route, query: links, limit, offset, count, data }) satisfies TContractList);
  },
  { route },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
