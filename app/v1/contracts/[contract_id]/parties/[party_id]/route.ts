import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/response";
import { partyPreload, preloadedParty } from "@/lib/api/json/party";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { deleteParty } from "@/lib/services/parties/delete-party";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.getParty,
    ({ params, preloaded }) => jsonText(preloadedParty(preloaded, params.contract_id, params.party_id)),
    // Read with the credentials, in one statement.
    { preload: ({ params }, { origin }) => partyPreload(params.contract_id, params.party_id, origin) },
  ),
  handle(ENDPOINTS.deleteParty, async ({ prisma, actor, params, requestId }) => {
    await deleteParty({ db: prisma, actor, contractId: params.contract_id, partyId: params.party_id, requestId });
    return new Response(null, { status: 204 });
  }),
);
