import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/response";
import { participantPreload, preloadedParticipant } from "@/lib/api/json/participant";
import { updateParticipantAnswer } from "@/lib/api/update-participant-answer";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { deleteParticipant } from "@/lib/services/participants/delete-participant";
import { updateTargetsPreload } from "@/lib/services/participants/update-participant";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.getParticipant,
    ({ params, preloaded }) => {
      const ids = { contractId: params.contract_id, partyId: params.party_id, participantId: params.participant_id };
      const { answer, etag } = preloadedParticipant(preloaded, ids);
      return jsonText(answer, { headers: { ETag: etag } });
    },
    // Read with the credentials, in one statement.
    { preload: ({ params }, { origin }) => participantPreload({ contractId: params.contract_id, partyId: params.party_id, participantId: params.participant_id }, origin) },
  ),
  /** docs/api.md "Updating a participant", with `If-Match` (412 when stale) and the new `ETag` in the answer. */
  handle(
    ENDPOINTS.updateParticipant,
    async ({ prisma, actor, params, body: changes, ifMatch, origin, requestId, preloaded }) => {
      const { contract_id: contractId, party_id: partyId, participant_id: participantId } = params;
      const { answer, etag } = await updateParticipantAnswer({ db: prisma, actor, origin, contractId, partyId, participantId, ifMatch, changes, requestId, preloaded });
      return jsonText(answer, { headers: { ETag: etag } });
    },
    // What the update checks is read with the credentials, in one statement.
    { preload: ({ params }) => updateTargetsPreload({ contractId: params.contract_id, partyId: params.party_id, participantId: params.participant_id }) },
  ),
  handle(ENDPOINTS.deleteParticipant, async ({ prisma, actor, params, requestId }) => {
    const { contract_id: contractId, party_id: partyId, participant_id: participantId } = params;
    await deleteParticipant({ db: prisma, actor, contractId, partyId, participantId, requestId });
    return new Response(null, { status: 204 });
  }),
);
