import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { paginated } from "@/lib/api/pagination";
import { serializeAuditEvent } from "@/lib/api/serializers";
import type { TAuditEventList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { listContractEvents } from "@/lib/services/audit/list-contract-events";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listContractEvents, async ({ prisma, actor, params, query: pagination, origin }) => {
    const contractId = params.contract_id;
    const { count, rows } = await listContractEvents({ db: prisma, actor, contractId, pagination });
    const path = `/v1/contracts/${contractId}/events`;
    return json(paginated({ origin, path, ...pagination, count, data: rows.map(serializeAuditEvent) }) satisfies TAuditEventList);
  }),
);
