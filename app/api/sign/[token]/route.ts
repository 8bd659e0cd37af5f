import { otherMethods, withApi } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import type { TSigningPageView } from "@/lib/schemas/signing";
import { openSigningLink } from "@/lib/services/signing/open-signing-link";
import { signingDocument } from "./files/signing-files";

// The signing page's data: the link's token is the credential (no session, no API token).
const route = "/api/sign/{token}";

export const GET = withApi(
  async ({ prisma, params }) => {
    const token = String(params.token ?? "");
    const view = await openSigningLink({ db: prisma!, token });
    const body: TSigningPageView = {
      contract: { name: view.contract.name, state: view.contract.state, signing_period_expiry_time: view.contract.expiresAt?.toISOString() ?? null },
      you: {
        name: view.you.name,
        email: view.you.email,
        party_name: view.you.partyName,
        signatory: view.you.signatory,
        sign_method: view.you.signMethod,
        sign_method_supported: view.you.signMethodSupported,
        two_step_authentication_method: view.you.twoStepMethod,
        two_step_locked: view.you.twoStepLocked,
        sign_state: view.you.signState,
        sign_order: view.you.signOrder,
        your_turn: view.you.yourTurn,
        can_delegate: view.you.canDelegate,
      },
      parties: view.parties.map((p) => ({
        name: p.name,
        my_party: p.myParty,
        participants: p.participants.map((x) => ({ name: x.name, title: x.title, signatory: x.signatory, sign_state: x.signState })),
      })),
      data_fields: view.dataFields,
      ...(await signingDocument(prisma!, view.contract.id, token, view.you.id)),
    };
    return json(body, { headers: { "Cache-Control": "no-store" } });
  },
  { route, auth: false },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
