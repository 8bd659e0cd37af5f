import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/handler";
import { claimIdempotencyKey, storeIdempotentAnswer } from "@/lib/api/idempotency";
import { serializeContract } from "@/lib/api/serializers";
import type { TContract } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { createContract } from "@/lib/services/contracts/create-contract";

/**
 * docs/api.md "Creating a contract": answers the created contract; its participants carry no `_links`. With an
 * `Idempotency-Key`, a retry with the same body gets the first answer and creates nothing (the
 * replay itself is answered by `handle`).
 */
export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.createContract, async ({ prisma, actor, body: request, idempotency, origin, requestId }) => {
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
  }),
);
