import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/response";
import { participantAnswer, participantEtag } from "@/lib/api/json/participant";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { sendInvitationAgain } from "@/lib/services/signing/send-invitation-again";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.sendInvitation, async ({ prisma, actor, params, origin, requestId }) => {
    const { contract_id: contractId, party_id: partyId, participant_id: participantId } = params;
    const row = await sendInvitationAgain({ db: prisma, actor, contractId, partyId, participantId, linkOrigin: origin, requestId });
    return jsonText(await participantAnswer(prisma, actor, origin, contractId, row.id), { headers: { ETag: participantEtag(row) } });
  }),
);
