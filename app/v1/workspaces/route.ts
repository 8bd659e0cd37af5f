import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { paginated } from "@/lib/api/pagination";
import { serializeWorkspace } from "@/lib/api/serializers";
import type { TWorkspaceList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { listWorkspaces } from "@/lib/services/workspaces/list-workspaces";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listWorkspaces, async ({ prisma, actor, query: pagination, origin }) => {
    const { count, rows } = await listWorkspaces({ db: prisma, actor, pagination });
    const data = rows.map((row) => serializeWorkspace(row, { actor, origin }));
    return json(paginated({ origin, path: ENDPOINTS.listWorkspaces.path, ...pagination, count, data }) satisfies TWorkspaceList);
  }),
);
