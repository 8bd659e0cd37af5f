import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { paginated } from "@/lib/api/pagination";
import { serializeParty } from "@/lib/api/serializers";
import type { TParty, TPartyList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { createParty } from "@/lib/services/parties/create-party";
import { listParties } from "@/lib/services/parties/list-parties";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listParties, async ({ prisma, actor, params, query: pagination, origin }) => {
    const contractId = params.contract_id;
    const { count, rows } = await listParties({ db: prisma, actor, contractId, pagination });
    const data = rows.map((row) => serializeParty(row, { actor, links: { origin } }));
    const path = `/v1/contracts/${contractId}/parties`;
    return json(paginated({ origin, path, ...pagination, count, data }) satisfies TPartyList);
  }),
  /** docs/api.md "Adding and removing parties and participants": 200 with the party as GET answers it. */
  handle(ENDPOINTS.createParty, async ({ prisma, actor, params, body: request, origin, requestId }) => {
    const row = await createParty({ db: prisma, actor, contractId: params.contract_id, request, requestId });
    return json(serializeParty(row, { actor, links: { origin } }) satisfies TParty);
  }),
);
