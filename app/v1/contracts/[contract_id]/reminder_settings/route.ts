import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import type { TContractReminderSettings } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { getContractReminderSettings } from "@/lib/services/reminders/get-contract-reminder-settings";
import { updateContractReminderSettings } from "@/lib/services/reminders/update-contract-reminder-settings";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getContractReminderSettings, async ({ prisma, actor, params }) => {
    return json((await getContractReminderSettings({ db: prisma, actor, contractId: params.contract_id })) satisfies TContractReminderSettings);
  }),
  handle(ENDPOINTS.updateContractReminderSettings, async ({ prisma, actor, params, body, requestId }) => {
    return json((await updateContractReminderSettings({ db: prisma, actor, contractId: params.contract_id, request: body, requestId })) satisfies TContractReminderSettings);
  }),
);
