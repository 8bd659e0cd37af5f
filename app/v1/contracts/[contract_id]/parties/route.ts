import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { paginated } from "@/lib/api/pagination";
import { serializeParty } from "@/lib/api/serializers";
import type { TPartyList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { listParties } from "@/lib/services/parties/list-parties";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listParties, async ({ prisma, actor, params, query: pagination, origin }) => {
    const contractId = params.contract_id;
    const { count, rows } = await listParties({ db: prisma, actor, contractId, pagination });
    const data = rows.map((row) => serializeParty(row, { actor, links: { origin } }));
    const path = `/v1/contracts/${contractId}/parties`;
    return json(paginated({ origin, path, ...pagination, count, data }) satisfies TPartyList);
  }),
);
