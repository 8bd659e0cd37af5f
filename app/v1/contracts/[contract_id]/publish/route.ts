import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { serializeContract } from "@/lib/api/serializers";
import type { TContract } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { publishContract } from "@/lib/services/contracts/publish-contract";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.publishContract, async ({ prisma, actor, params, body, origin, requestId }) => {
    const row = await publishContract({ db: prisma, actor, contractId: params.contract_id, subject: body.subject, message: body.message, linkOrigin: origin, requestId });
    return json(serializeContract(row, { actor, origin }) satisfies TContract);
  }),
);
