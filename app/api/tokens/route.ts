import { otherMethods, withApi, readJsonBody } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { assertSameOrigin } from "@/lib/api/auth";
import { requireAdminActor, requireAdminSession } from "@/lib/api/web-guards";
import { ZCreateApiTokenRequestSchema, type TCreateApiTokenResponse } from "@/lib/schemas/api-token";
import { createApiToken } from "@/lib/services/api-tokens/create-api-token";
import { listApiTokens } from "@/lib/services/api-tokens/list-api-tokens";
import { serializeApiToken } from "@/lib/services/api-tokens/api-token-record";

// API token management for admins of the web app: session only (`auth: false` = no token auth).
const route = "/api/tokens";

export const GET = withApi(
  async ({ req, prisma }) => {
    await requireAdminSession(req);
    const tokens = await listApiTokens({ db: prisma });
    return json({ data: tokens.map(serializeApiToken) });
  },
  { route, auth: false },
);

export const POST = withApi(
  async ({ req, prisma, requestId }) => {
    assertSameOrigin(req);
    const actor = await requireAdminActor(req, prisma);
    const { name } = ZCreateApiTokenRequestSchema.parse(await readJsonBody(req));
    const { token, apiToken } = await createApiToken({ db: prisma, actor, name, requestId });
    const body: TCreateApiTokenResponse = { ...serializeApiToken(apiToken), token };
    return json(body, { status: 201 });
  },
  { route, auth: false },
);

export const { PUT, PATCH, DELETE } = otherMethods(["GET", "POST"], route);
