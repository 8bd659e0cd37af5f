import { json, otherMethods, withApi } from "@/lib/api/handler";
import { paginated, parsePagination } from "@/lib/api/pagination";
import { serializeWorkspace } from "@/lib/api/serializers";
import type { TWorkspaceList } from "@/lib/schemas";
import { listWorkspaces } from "@/lib/services/workspaces/list-workspaces";

const route = "/v1/workspaces";

export const GET = withApi(
  async ({ prisma, actor, url, origin }) => {
    const pagination = parsePagination(url);
    const { count, rows } = await listWorkspaces({ db: prisma, actor, pagination });
    const data = rows.map((row) => serializeWorkspace(row, { actor }));
    return json(paginated({ origin, path: route, ...pagination, count, data }) satisfies TWorkspaceList);
  },
  { route },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
