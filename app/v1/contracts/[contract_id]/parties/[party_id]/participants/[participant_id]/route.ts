import { endpointRoute, handle, jsonText } from "@/lib/api/endpoint";
import { participantEtag, participantVersionsOf, withCurrentEtag } from "@/lib/api/etag";
import { participantAnswer, participantAnswerSql, participantPreload, preloadedParticipant } from "@/lib/api/json/participant";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { deleteParticipant } from "@/lib/services/participants/delete-participant";
import { updateParticipant, updateTargetsPreload } from "@/lib/services/participants/update-participant";

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
      const expectedVersions = participantVersionsOf(ifMatch, participantId);
      // The write statement writes the answer too; an update that changed nothing reads it.
      const returning = participantAnswerSql(actor, origin, contractId);
      const updated = await updateParticipant({ db: prisma, actor, contractId, partyId, participantId, expectedVersions, changes, requestId, preloaded, returning, linkOrigin: origin }).catch(
        (error: unknown) => {
          throw withCurrentEtag(error);
        },
      );
      const answer = (updated.returned as string | null) ?? (await participantAnswer(prisma, actor, origin, contractId, participantId));
      return jsonText(answer, { headers: { ETag: participantEtag(updated.participant) } });
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
