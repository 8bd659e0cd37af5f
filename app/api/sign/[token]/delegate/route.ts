import { otherMethods, withApi, readJsonBody } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { assertSameOrigin } from "@/lib/api/auth";
import { ZDelegateRequestSchema } from "@/lib/schemas/signing";
import { delegateByLink } from "@/lib/services/signing/delegate-by-link";

// A signatory hands their signature on (docs/signing.md "Delegation"): POST from this site's own signing
// page only; the link's token is the credential, and it dies here.
const route = "/api/sign/{token}/delegate";

export const POST = withApi(
  async ({ req, prisma, params }) => {
    assertSameOrigin(req);
    const { name, email, reason, code } = ZDelegateRequestSchema.parse(await readJsonBody(req));
    const { delegateName } = await delegateByLink({ db: prisma!, token: String(params.token ?? ""), delegation: { name, email, reason, code } });
    return json({ delegate_name: delegateName });
  },
  { route, auth: false },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"], route);
