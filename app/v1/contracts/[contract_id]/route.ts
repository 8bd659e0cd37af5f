import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { serializeContract } from "@/lib/api/serializers";
import type { TContract } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { deleteContract } from "@/lib/services/contracts/delete-contract";
import { getContract } from "@/lib/services/contracts/get-contract";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getContract, async ({ prisma, actor, params, origin }) => {
    const row = await getContract({ db: prisma, actor, contractId: params.contract_id });
    return json(serializeContract(row, { actor, origin }) satisfies TContract);
  }),
  handle(ENDPOINTS.deleteContract, async ({ prisma, actor, params, requestId }) => {
    await deleteContract({ db: prisma, actor, contractId: params.contract_id, requestId });
    return new Response(null, { status: 204 });
  }),
);
