import { json, otherMethods, withApi } from "@/lib/api/handler";
import { parseIdParam, readJsonBody } from "@/lib/api/request";
import { serializeParticipant } from "@/lib/api/serializers";
import { participantEtag } from "@/lib/services/participants/participant-row";
import { ZUpdateParticipantRequestSchema, type TParticipant } from "@/lib/schemas";
import { getParticipant } from "@/lib/services/participants/get-participant";
import { updateParticipant } from "@/lib/services/participants/update-participant";

const route = "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}";

export const GET = withApi(
  async ({ prisma, actor, params, origin }) => {
    const contractId = parseIdParam(params.contract_id, "contract_id");
    const partyId = parseIdParam(params.party_id, "party_id");
    const participantId = parseIdParam(params.participant_id, "participant_id");
    const row = await getParticipant({ db: prisma, actor, contractId, partyId, participantId });
    const body = serializeParticipant(row, { actor, links: { origin, contractId, partyId } }) satisfies TParticipant;
    return json(body, { headers: { ETag: participantEtag(row) } });
  },
  { route },
);

/** Spec 4.1, with `If-Match` (412 when stale) and the new `ETag` in the answer. */
export const PUT = withApi(
  async ({ prisma, actor, params, req, origin, requestId }) => {
    const contractId = parseIdParam(params.contract_id, "contract_id");
    const partyId = parseIdParam(params.party_id, "party_id");
    const participantId = parseIdParam(params.participant_id, "participant_id");
    const changes = ZUpdateParticipantRequestSchema.parse(await readJsonBody(req));
    const ifMatch = req.headers.get("if-match");
    const row = await updateParticipant({ db: prisma, actor, contractId, partyId, participantId, ifMatch, changes, requestId });
    const body = serializeParticipant(row, { actor, links: { origin, contractId, partyId } }) satisfies TParticipant;
    return json(body, { headers: { ETag: participantEtag(row) } });
  },
  { route },
);

export const { POST, PATCH, DELETE } = otherMethods(["GET", "PUT"], route);
