import { otherMethods, withApi, parseIdParam } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { assertSameOrigin } from "@/lib/api/auth";
import { requireAdminActor } from "@/lib/api/web-guards";
import { revokeApiToken } from "@/lib/services/api-tokens/revoke-api-token";
import { serializeApiToken } from "@/lib/services/api-tokens/api-token-record";

const route = "/api/tokens/{id}";

/** Revokes the token (it stays listed, with its revoked time). */
export const DELETE = withApi(
  async ({ req, prisma, params, requestId }) => {
    assertSameOrigin(req);
    const actor = await requireAdminActor(req, prisma);
    const id = parseIdParam(params.id, "id");
    const token = await revokeApiToken({ db: prisma, actor, id, requestId });
    return json(serializeApiToken(token));
  },
  { route, auth: false },
);

export const { GET, POST, PUT, PATCH } = otherMethods(["DELETE"], route);
