import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { serializeContract } from "@/lib/api/serializers";
import type { TContract } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { contractDetailPreload, preloadedContract } from "@/lib/services/contracts/contract-sql";
import { deleteContract } from "@/lib/services/contracts/delete-contract";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.getContract,
    ({ actor, params, origin, preloaded }) => json(serializeContract(preloadedContract(preloaded, params.contract_id), { actor, origin }) satisfies TContract),
    // Read with the credentials, in one statement.
    { preload: ({ params }) => contractDetailPreload(params.contract_id) },
  ),
  handle(ENDPOINTS.deleteContract, async ({ prisma, actor, params, requestId }) => {
    await deleteContract({ db: prisma, actor, contractId: params.contract_id, requestId });
    return new Response(null, { status: 204 });
  }),
);
