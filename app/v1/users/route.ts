import { json, otherMethods, withApi } from "@/lib/api/handler";
import { paginated, parsePagination } from "@/lib/api/pagination";
import { serializeUser } from "@/lib/api/serializers";
import type { TUserList } from "@/lib/schemas";
import { listUsers } from "@/lib/services/users/list-users";

const route = "/v1/users";

export const GET = withApi(
  async ({ prisma, actor, url, origin }) => {
    const pagination = parsePagination(url);
    const { count, rows } = await listUsers({ db: prisma, actor, pagination });
    return json(paginated({ origin, path: route, ...pagination, count, data: rows.map(serializeUser) }) satisfies TUserList);
  },
  { route },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
