import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/response";
import { partiesPreload, partyAnswer, preloadedParties } from "@/lib/api/json/party";
import { paginatedPreloaded } from "@/lib/api/pagination";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { createParty } from "@/lib/services/parties/create-party";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.listParties,
    // PostgreSQL wrote `{"count":…,"data":[…]` as UTF-8 bytes; the envelope's links are appended.
    ({ params, query: pagination, origin, preloaded }) =>
      paginatedPreloaded(preloadedParties(preloaded, params.contract_id), { origin, path: `/v1/contracts/${params.contract_id}/parties`, ...pagination }),
    // Read with the credentials, in one statement.
    { preload: ({ params, query }, { origin }) => partiesPreload(params.contract_id, query, origin) },
  ),
  /** docs/api.md "Adding and removing parties and participants": 200 with the party as GET answers it. */
  handle(ENDPOINTS.createParty, async ({ prisma, actor, params, body: request, origin, requestId }) => {
    const row = await createParty({ db: prisma, actor, contractId: params.contract_id, request, requestId });
    return jsonText(await partyAnswer(prisma, actor, origin, row.id));
  }),
);
