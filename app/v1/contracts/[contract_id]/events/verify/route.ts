import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { serializeChainVerdict } from "@/lib/api/serializers";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { verifyContractChain } from "@/lib/services/audit/verify-contract-chain";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.verifyContractEvents, async ({ prisma, actor, params }) =>
    json(serializeChainVerdict(await verifyContractChain({ db: prisma, actor, contractId: params.contract_id }))),
  ),
);
