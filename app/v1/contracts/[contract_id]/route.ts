import { json, otherMethods, withApi } from "@/lib/api/handler";
import { parseIdParam } from "@/lib/api/request";
import { serializeContract } from "@/lib/api/serializers";
import type { TContract } from "@/lib/schemas";
import { getContract } from "@/lib/services/contracts/get-contract";

const route = "/v1/contracts/{contract_id}";

export const GET = withApi(
  async ({ prisma, actor, params, origin }) => {
    const contractId = parseIdParam(params.contract_id, "contract_id");
    const row = await getContract({ db: prisma, actor, contractId });
    return json(serializeContract(row, { actor, origin }) satisfies TContract);
  },
  { route },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"], route);
