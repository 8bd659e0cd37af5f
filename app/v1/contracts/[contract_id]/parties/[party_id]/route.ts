import { json, otherMethods, withApi } from "@/lib/api/handler";
import { parseIdParam } from "@/lib/api/request";
import { serializeParty } from "@/lib/api/serializers";
import type { TParty } from "@/lib/schemas";
import { getParty } from "@/lib/services/parties/get-party";

const route = "/v1/contracts/{contract_id}/parties/{party_id}";

export const GET = withApi(
  async ({ prisma, actor, params, origin }) => {
    const contractId = parseIdParam(params.contract_id, "contract_id");
    const partyId = parseIdParam(params.party_id, "party_id");
    const row = await getParty({ db: prisma, actor, contractId, partyId });
    return json(serializeParty(row, { actor, links: { origin } }) satisfies TParty);
  },
  { route },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
