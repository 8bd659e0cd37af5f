import { listErrorCodes } from "@/lib/domain/error-codes";
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { paginated, parsePagination } from "@/lib/api/pagination";
import { serializeErrorCode } from "@/lib/api/serializers";
import type { TErrorCodeList } from "@/lib/schemas/error-code";

const route = "/v1/error_codes";

/** Public and database-free: the `type` link of an error body must resolve even for a 401 or a 503. */
export const GET = withApi(
  ({ url, origin }) => {
    const { limit, offset } = parsePagination(url);
    const all = listErrorCodes().sort((a, b) => a.code - b.code);
    const page = limit === "all" ? all.slice(offset) : all.slice(offset, offset + limit);
    const data = page.map((entry) => serializeErrorCode(entry, { origin }));
    return json(paginated({ origin, path: route, limit, offset, count: all.length, data }) satisfies TErrorCodeList);
  },
  { route, auth: false, database: false },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
