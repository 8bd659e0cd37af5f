import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/response";
import { contractAnswer } from "@/lib/api/json/contract";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { withdrawContract } from "@/lib/services/contracts/withdraw-contract";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.withdrawContract, async ({ prisma, actor, params, body, origin, requestId }) => {
    await withdrawContract({ db: prisma, actor, contractId: params.contract_id, reason: body.reason, linkOrigin: origin, requestId });
    return jsonText(await contractAnswer(prisma, actor, origin, params.contract_id));
  }),
);
