import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { serializeContractReminder } from "@/lib/api/serializers";
import type { TContractReminder } from "@/lib/schemas/lifecycle";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { createContractReminder } from "@/lib/services/lifecycle/create-contract-reminder";
import { listContractReminders } from "@/lib/services/lifecycle/list-contract-reminders";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listContractReminders, async ({ prisma, actor, params }) => {
    const rows = await listContractReminders({ db: prisma, actor, contractId: params.contract_id });
    return json({ count: rows.length, data: rows.map(serializeContractReminder) });
  }),
  handle(ENDPOINTS.createContractReminder, async ({ prisma, actor, params, body, requestId }) => {
    const row = await createContractReminder({ db: prisma, actor, contractId: params.contract_id, request: body, requestId });
    return json(serializeContractReminder(row) satisfies TContractReminder);
  }),
);
