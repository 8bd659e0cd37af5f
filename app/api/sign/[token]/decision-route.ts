import { otherMethods, withApi, readJsonBody } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { assertSameOrigin } from "@/lib/api/auth";
import { decideByLink, type TDecision } from "@/lib/services/signing/decide-by-link";

/**
 * The exports of a signer's decision route (sign, decline): POST from this site's own signing page
 * only, its body read by `decision` (which throws the 400), answered with the contract's new state;
 * every other method a 405.
 */
export function decisionRoute(route: string, decision: (body: Record<string, unknown>) => TDecision) {
  const POST = withApi(
    async ({ req, prisma, params }) => {
      assertSameOrigin(req);
      const { contractState } = await decideByLink({
        db: prisma!,
        token: String(params.token ?? ""),
        decision: decision(await readJsonBody(req)),
        // server.mjs sets x-forwarded-for to the one client address it resolved (docs/security.md "The front door").
        client: { ip: req.headers.get("x-forwarded-for") ?? "", userAgent: req.headers.get("user-agent") ?? "" },
      });
      return json({ contract_state: contractState });
    },
    { route, auth: false },
  );
  return { ...otherMethods(["POST"], route), POST };
}
