import { json, otherMethods, withApi } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { assertSameOrigin } from "@/lib/api/web-guards";
import { ZSignRequestSchema } from "@/lib/schemas/signing";
import { decideByLink } from "@/lib/services/signing/sign-by-link";

const route = "/api/sign/{token}/sign";

export const POST = withApi(
  async ({ req, prisma, params, origin }) => {
    assertSameOrigin(req);
    const body = ZSignRequestSchema.parse(await readJsonBody(req));
    const { contractState } = await decideByLink({ db: prisma!, token: String(params.token ?? ""), decision: { kind: "sign", fullName: body.full_name, code: body.code }, linkOrigin: origin });
    return json({ contract_state: contractState });
  },
  { route, auth: false },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"], route);
