import { endpointRoute, handle } from "@/lib/api/endpoint";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { deleteContractReminder } from "@/lib/services/lifecycle/delete-contract-reminder";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.deleteContractReminder, async ({ prisma, actor, params, requestId }) => {
    await deleteContractReminder({ db: prisma, actor, contractId: params.contract_id, reminderId: params.reminder_id, requestId });
    return new Response(null, { status: 204 });
  }),
);
