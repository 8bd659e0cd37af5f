import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { serializePlacement } from "@/lib/api/serializers";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { deletePlacement } from "@/lib/services/placements/delete-placement";
import { updatePlacement } from "@/lib/services/placements/update-placement";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.updatePlacement, async ({ prisma, actor, params, body, requestId }) => {
    const row = await updatePlacement({ db: prisma, actor, contractId: params.contract_id, placementId: params.placement_id, request: body, requestId });
    return json(serializePlacement(row));
  }),
  handle(ENDPOINTS.deletePlacement, async ({ prisma, actor, params, requestId }) => {
    await deletePlacement({ db: prisma, actor, contractId: params.contract_id, placementId: params.placement_id, requestId });
    return new Response(null, { status: 204 });
  }),
);
