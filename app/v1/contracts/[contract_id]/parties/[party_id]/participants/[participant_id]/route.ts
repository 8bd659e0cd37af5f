import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json, jsonText } from "@/lib/api/handler";
import { linkBase } from "@/lib/http/origin";
import { serializeParticipant } from "@/lib/api/serializers";
import type { TParticipant } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { deleteParticipant } from "@/lib/services/participants/delete-participant";
import { getParticipant } from "@/lib/services/participants/get-participant";
import { participantEtag } from "@/lib/services/participants/participant-row";
import { updateParticipant, updateTargetsPreload, updateWriteAhead, writtenParticipantAnswer } from "@/lib/services/participants/update-participant";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getParticipant, async ({ prisma, actor, params, origin }) => {
    const { contract_id: contractId, party_id: partyId, participant_id: participantId } = params;
    const row = await getParticipant({ db: prisma, actor, contractId, partyId, participantId });
    const body = serializeParticipant(row, { actor, links: { origin, contractId, partyId } }) satisfies TParticipant;
    return json(body, { headers: { ETag: participantEtag(row) } });
  }),
  /** docs/api.md "Updating a participant", with `If-Match` (412 when stale) and the new `ETag` in the answer. */
  handle(
    ENDPOINTS.updateParticipant,
    async ({ prisma, actor, params, body: changes, ifMatch, origin, requestId, preloaded, written }) => {
      // Written in the credentials' statement, which wrote the answer too.
      if (written != null) {
        const answer = writtenParticipantAnswer(written);
        return jsonText(answer.body, { headers: { ETag: answer.etag } });
      }
      const { contract_id: contractId, party_id: partyId, participant_id: participantId } = params;
      // After a write-ahead that wrote nothing there is no preload (lib/api/auth.ts): read first.
      const row = await updateParticipant({ db: prisma, actor, contractId, partyId, participantId, ifMatch, changes, requestId, preloaded, readFirst: true });
      const body = serializeParticipant(row, { actor, links: { origin, contractId, partyId } }) satisfies TParticipant;
      return json(body, { headers: { ETag: participantEtag(row) } });
    },
    // What the update checks is read with the credentials, in one statement; or, when the request
    // says what to write, the change is written there instead when that statement can see that
    // every check passes (else the handler reads and writes itself).
    {
      preload: ({ params }) => updateTargetsPreload({ contractId: params.contract_id, partyId: params.party_id, participantId: params.participant_id }),
      writeAhead: ({ params, body }, { requestId, origin }) =>
        updateWriteAhead({ contractId: params.contract_id, partyId: params.party_id, participantId: params.participant_id }, body, requestId, linkBase(origin)),
    },
  ),
  handle(ENDPOINTS.deleteParticipant, async ({ prisma, actor, params, requestId }) => {
    const { contract_id: contractId, party_id: partyId, participant_id: participantId } = params;
    await deleteParticipant({ db: prisma, actor, contractId, partyId, participantId, requestId });
    return new Response(null, { status: 204 });
  }),
);
