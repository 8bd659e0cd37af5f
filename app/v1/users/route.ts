import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { paginated } from "@/lib/api/pagination";
import { serializeUser } from "@/lib/api/serializers";
import type { TUserList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { listUsers } from "@/lib/services/users/list-users";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listUsers, async ({ prisma, actor, query: pagination, origin }) => {
    const { count, rows } = await listUsers({ db: prisma, actor, pagination });
    return json(paginated({ origin, path: ENDPOINTS.listUsers.path, ...pagination, count, data: rows.map(serializeUser) }) satisfies TUserList);
  }),
);
