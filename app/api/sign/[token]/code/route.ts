import { otherMethods, withApi } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { assertSameOrigin } from "@/lib/api/auth";
import { sendTwoStepCode } from "@/lib/services/signing/send-two-step-code";

const route = "/api/sign/{token}/code";

export const POST = withApi(
  async ({ req, prisma, params }) => {
    assertSameOrigin(req);
    const { sentTo } = await sendTwoStepCode({ db: prisma!, token: String(params.token ?? "") });
    return json({ sent_to: sentTo }, { status: 202 });
  },
  { route, auth: false },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"], route);
