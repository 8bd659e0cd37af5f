import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { serializeParticipant } from "@/lib/api/serializers";
import type { TParticipant } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { participantEtag } from "@/lib/services/participants/participant-row";
import { sendInvitationAgain } from "@/lib/services/signing/participant-signing-link";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.sendInvitation, async ({ prisma, actor, params, origin, requestId }) => {
    const { contract_id: contractId, party_id: partyId, participant_id: participantId } = params;
    const row = await sendInvitationAgain({ db: prisma, actor, contractId, partyId, participantId, linkOrigin: origin, requestId });
    const body = serializeParticipant(row, { actor, links: { origin, contractId, partyId } }) satisfies TParticipant;
    return json(body, { headers: { ETag: participantEtag(row) } });
  }),
);
