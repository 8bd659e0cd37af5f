import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/response";
import { contractAnswer } from "@/lib/api/json/contract";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { terminateContract } from "@/lib/services/lifecycle/terminate-contract";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.terminateContract, async ({ prisma, actor, params, body, origin, requestId }) => {
    await terminateContract({ db: prisma, actor, contractId: params.contract_id, date: body.date, linkOrigin: origin, requestId });
    return jsonText(await contractAnswer(prisma, actor, origin, params.contract_id));
  }),
);
