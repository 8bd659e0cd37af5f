import { json, otherMethods, withApi } from "@/lib/api/handler";
import { paginated, parsePagination } from "@/lib/api/pagination";
import { parseIdParam } from "@/lib/api/request";
import { serializeParty } from "@/lib/api/serializers";
import type { TPartyList } from "@/lib/schemas";
import { listParties } from "@/lib/services/parties/list-parties";

const route = "/v1/contracts/{contract_id}/parties";

export const GET = withApi(
  async ({ prisma, actor, params, url, origin }) => {
    const contractId = parseIdParam(params.contract_id, "contract_id");
    const pagination = parsePagination(url, { allowAll: true });
    const { count, rows } = await listParties({ db: prisma, actor, contractId, pagination });
    const data = rows.map((row) => serializeParty(row, { actor, links: { origin } }));
    const path = `/v1/contracts/${contractId}/parties`;
    return json(paginated({ origin, path, ...pagination, count, data }) satisfies TPartyList);
  },
  { route },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
