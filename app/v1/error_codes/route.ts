import { listErrorCodes } from "@/lib/domain/error-codes";
import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { paginated } from "@/lib/api/pagination";
import { serializeErrorCode } from "@/lib/api/serializers";
import type { TErrorCodeList } from "@/lib/schemas/error-code";
import { ENDPOINTS } from "@/lib/schemas/endpoints";

/** Public and database-free: the `type` link of an error body must resolve even for a 401 or a 503. */
export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listErrorCodes, ({ query: { limit, offset }, origin }) => {
    const all = listErrorCodes().sort((a, b) => a.code - b.code);
    const page = limit === "all" ? all.slice(offset) : all.slice(offset, offset + limit);
    const data = page.map((entry) => serializeErrorCode(entry, { origin }));
    return json(paginated({ origin, path: ENDPOINTS.listErrorCodes.path, limit, offset, count: all.length, data }) satisfies TErrorCodeList);
  }),
);
