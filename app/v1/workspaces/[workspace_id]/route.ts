import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { serializeWorkspace } from "@/lib/api/serializers";
import type { TWorkspace } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { getWorkspace } from "@/lib/services/workspaces/get-workspace";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getWorkspace, async ({ prisma, actor, params, origin }) => {
    const row = await getWorkspace({ db: prisma, actor, workspaceId: params.workspace_id });
    return json(serializeWorkspace(row, { actor, origin }) satisfies TWorkspace);
  }),
);
