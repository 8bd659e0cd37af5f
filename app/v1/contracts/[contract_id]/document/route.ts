import { endpointRoute, handle, json } from "@/lib/api/endpoint";
import { serializeContractDocument } from "@/lib/api/serializers";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { getContractDocument } from "@/lib/services/contracts/get-contract-document";
import { loadContractDocument } from "@/lib/services/contracts/load-contract-document";
import { updateContractBody } from "@/lib/services/contracts/update-contract-body";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getContractDocument, async ({ prisma, actor, params, origin }) =>
    json(serializeContractDocument(await getContractDocument({ db: prisma, actor, contractId: params.contract_id }), { origin })),
  ),
  handle(ENDPOINTS.updateContractBody, async ({ prisma, actor, params, body, origin, requestId }) => {
    await updateContractBody({ db: prisma, actor, contractId: params.contract_id, request: body, requestId });
    return json(serializeContractDocument(await loadContractDocument(prisma, params.contract_id), { origin }));
  }),
);
