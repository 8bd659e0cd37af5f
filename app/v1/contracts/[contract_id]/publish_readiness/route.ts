import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import type { TPublishReadiness } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { getPublishReadiness } from "@/lib/services/contracts/get-publish-readiness";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getPublishReadiness, async ({ prisma, actor, params }) => {
    const problems = await getPublishReadiness({ db: prisma, actor, contractId: params.contract_id });
    const body: TPublishReadiness = {
      ready: problems.length === 0,
      problems: problems.map((p) => ({
        path: p.path,
        message: p.message,
        party_id: p.partyId,
        participant_id: p.participantId,
        missing_data_field: p.missingDataField ? { custom_id: p.missingDataField.customId, name: p.missingDataField.name } : null,
      })),
    };
    return json(body);
  }),
);
