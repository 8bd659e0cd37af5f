import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { serializePlacement } from "@/lib/api/serializers";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { createPlacement } from "@/lib/services/placements/create-placement";
import { listPlacements } from "@/lib/services/placements/list-placements";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listPlacements, async ({ prisma, actor, params }) => {
    const rows = await listPlacements({ db: prisma, actor, contractId: params.contract_id });
    return json({ count: rows.length, data: rows.map(serializePlacement) });
  }),
  handle(ENDPOINTS.createPlacement, async ({ prisma, actor, params, body, requestId }) => {
    const row = await createPlacement({ db: prisma, actor, contractId: params.contract_id, request: body, requestId });
    return json(serializePlacement(row));
  }),
);
