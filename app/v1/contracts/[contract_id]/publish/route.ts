import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/response";
import { contractAnswer } from "@/lib/api/json/contract";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { publishContract } from "@/lib/services/contracts/publish-contract";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.publishContract, async ({ prisma, actor, params, body, origin, requestId }) => {
    await publishContract({ db: prisma, actor, contractId: params.contract_id, subject: body.subject, message: body.message, linkOrigin: origin, requestId });
    return jsonText(await contractAnswer(prisma, actor, origin, params.contract_id));
  }),
);
