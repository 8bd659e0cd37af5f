import { listErrorCodes } from "@/lib/domain/error-codes";
import { ApiError } from "@/lib/api/errors";
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { parseIdParam } from "@/lib/api/request";
import { serializeErrorCode } from "@/lib/api/serializers";
import type { TErrorCode } from "@/lib/schemas/error-code";

const route = "/v1/error_codes/{code}";

/** Public and database-free: this is the `type` URL of every error body. */
export const GET = withApi(
  ({ params, origin }) => {
    const code = parseIdParam(params.code, "code");
    const entry = listErrorCodes().find((candidate) => candidate.code === code);
    if (!entry) throw new ApiError("resource_not_found", `There is no error code ${code}.`);
    return json(serializeErrorCode(entry, { origin }) satisfies TErrorCode);
  },
  { route, auth: false, database: false },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
