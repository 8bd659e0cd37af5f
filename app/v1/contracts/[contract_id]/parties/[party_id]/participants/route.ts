import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { serializeParticipant } from "@/lib/api/serializers";
import type { TParticipant } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { createParticipant } from "@/lib/services/participants/create-participant";
import { participantEtag } from "@/lib/services/participants/participant-row";

/** docs/api.md "Adding and removing parties and participants": 200 with the participant and its `ETag`, as GET answers them. */
export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.createParticipant, async ({ prisma, actor, params, body: request, origin, requestId }) => {
    const { contract_id: contractId, party_id: partyId } = params;
    const row = await createParticipant({ db: prisma, actor, contractId, partyId, request, requestId });
    const body = serializeParticipant(row, { actor, links: { origin, contractId, partyId } }) satisfies TParticipant;
    return json(body, { headers: { ETag: participantEtag(row) } });
  }),
);
