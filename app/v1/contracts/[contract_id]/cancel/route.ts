import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/response";
import { contractAnswer } from "@/lib/api/json/contract";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { cancelContract } from "@/lib/services/lifecycle/cancel-contract";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.cancelContract, async ({ prisma, actor, params, origin, requestId }) => {
    await cancelContract({ db: prisma, actor, contractId: params.contract_id, linkOrigin: origin, requestId });
    return jsonText(await contractAnswer(prisma, actor, origin, params.contract_id));
  }),
);
