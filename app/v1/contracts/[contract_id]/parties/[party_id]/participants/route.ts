import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/response";
import { participantAnswer, participantEtag } from "@/lib/api/json/participant";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { createParticipant } from "@/lib/services/participants/create-participant";

/** docs/api.md "Adding and removing parties and participants": 200 with the participant and its `ETag`, as GET answers them. */
export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.createParticipant, async ({ prisma, actor, params, body: request, origin, requestId }) => {
    const { contract_id: contractId, party_id: partyId } = params;
    const row = await createParticipant({ db: prisma, actor, contractId, partyId, request, requestId });
    return jsonText(await participantAnswer(prisma, actor, origin, contractId, row.id), { headers: { ETag: participantEtag(row) } });
  }),
);
