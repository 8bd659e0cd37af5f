import { endpointRoute, handle } from "@/lib/api/endpoint";
import { jsonText } from "@/lib/api/response";
import { claimIdempotencyKey, storeIdempotentAnswer } from "@/lib/api/idempotency";
import { contractAnswer } from "@/lib/api/json/contract";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { createContract } from "@/lib/services/contracts/create-contract";

/**
 * docs/api.md "Creating a contract": answers the created contract; its participants carry no `_links`. With an
 * `Idempotency-Key`, a retry with the same body gets the first answer and creates nothing (the
 * replay itself is answered by `handle`). The answer is read in the creating transaction, so the
 * stored one is the one sent.
 */
export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.createContract, async ({ prisma, actor, body: request, idempotency, origin, requestId }) => {
    let answer = "";
    await createContract({
      db: prisma,
      actor,
      request,
      requestId,
      inTransaction: {
        first: idempotency ? (tx) => claimIdempotencyKey(tx, idempotency) : undefined,
        last: async (tx, contract) => {
          answer = await contractAnswer(tx, actor, origin, contract.id);
          if (idempotency) await storeIdempotentAnswer(tx, idempotency, 200, JSON.parse(answer));
        },
      },
    });
    return jsonText(answer);
  }),
);
