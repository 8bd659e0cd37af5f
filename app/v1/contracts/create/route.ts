import { json, otherMethods, withApi } from "@/lib/api/handler";
import { claimIdempotencyKey, idempotencyOf, IdempotentReplay, storeIdempotentAnswer } from "@/lib/api/idempotency";
import { readJsonBody } from "@/lib/api/request";
import { serializeContract } from "@/lib/api/serializers";
import { ZCreateContractRequestSchema, type TContract } from "@/lib/schemas";
import { createContract } from "@/lib/services/contracts/create-contract";

const route = "/v1/contracts/create";

/**
 * Spec 4.2: answers the created contract; its participants carry no `_links` (rule 5). With an
 * `Idempotency-Key`, a retry with the same body gets the first answer and creates nothing.
 */
export const POST = withApi(
  async ({ prisma, actor, req, origin, requestId }) => {
    const body = await readJsonBody(req);
    const request = ZCreateContractRequestSchema.parse(body);
    const idempotency = idempotencyOf(req, actor, body);
    try {
      const row = await createContract({
        db: prisma,
        actor,
        request,
        requestId,
        inTransaction: idempotency
          ? {
              first: (tx) => claimIdempotencyKey(tx, idempotency),
              last: (tx, contract) => storeIdempotentAnswer(tx, idempotency, 200, serializeContract(contract, { actor, origin })),
            }
          : undefined,
      });
      return json(serializeContract(row, { actor, origin }) satisfies TContract);
    } catch (error) {
      if (error instanceof IdempotentReplay) return json(error.body, { status: error.status, headers: { "Idempotent-Replayed": "true" } });
      throw error;
    }
  },
  { route },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"], route);
