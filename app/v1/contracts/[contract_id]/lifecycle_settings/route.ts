import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/response";
import { contractAnswer } from "@/lib/api/json/contract";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { updateLifecycleSettings } from "@/lib/services/lifecycle/update-lifecycle-settings";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.updateContractLifecycleSettings, async ({ prisma, actor, params, body, origin, requestId }) => {
    await updateLifecycleSettings({ db: prisma, actor, contractId: params.contract_id, request: body, requestId });
    return jsonText(await contractAnswer(prisma, actor, origin, params.contract_id));
  }),
);
