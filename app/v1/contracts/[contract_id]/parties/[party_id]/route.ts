import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { serializeParty } from "@/lib/api/serializers";
import type { TParty } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { deleteParty } from "@/lib/services/parties/delete-party";
import { getParty } from "@/lib/services/parties/get-party";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getParty, async ({ prisma, actor, params, origin }) => {
    const row = await getParty({ db: prisma, actor, contractId: params.contract_id, partyId: params.party_id });
    return json(serializeParty(row, { actor, links: { origin } }) satisfies TParty);
  }),
  handle(ENDPOINTS.deleteParty, async ({ prisma, actor, params, requestId }) => {
    await deleteParty({ db: prisma, actor, contractId: params.contract_id, partyId: params.party_id, requestId });
    return new Response(null, { status: 204 });
  }),
);
