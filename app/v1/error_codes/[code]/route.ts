import { listErrorCodes } from "@/lib/domain/error-codes";
import { ApiError } from "@/lib/api/errors";
import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { serializeErrorCode } from "@/lib/api/serializers";
import type { TErrorCode } from "@/lib/schemas/error-code";
import { ENDPOINTS } from "@/lib/schemas/endpoints";

/** Public and database-free: this is the `type` URL of every error body. */
export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getErrorCode, ({ params, origin }) => {
    const entry = listErrorCodes().find((candidate) => candidate.code === params.code);
    if (!entry) throw new ApiError("resource_not_found", `There is no error code ${params.code}.`);
    return json(serializeErrorCode(entry, { origin }) satisfies TErrorCode);
  }),
);
