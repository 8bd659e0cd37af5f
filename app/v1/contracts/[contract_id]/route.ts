import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/response";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { contractDetailPreload, preloadedContract } from "@/lib/api/json/contract";
import { deleteContract } from "@/lib/services/contracts/delete-contract";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(
    ENDPOINTS.getContract,
    // PostgreSQL wrote the answer (TContract, exactly as serializeContract writes it for the caller) as UTF-8 bytes.
    ({ params, preloaded }) => jsonText(preloadedContract(preloaded, params.contract_id)),
    // Read with the credentials, in one statement; links under the origin the serializers use.
    { preload: ({ params }, { origin }) => contractDetailPreload(params.contract_id, origin) },
  ),
  handle(ENDPOINTS.deleteContract, async ({ prisma, actor, params, requestId }) => {
    await deleteContract({ db: prisma, actor, contractId: params.contract_id, requestId });
    return new Response(null, { status: 204 });
  }),
);
