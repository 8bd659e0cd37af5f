import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { documentEtag, documentUpdate } from "@/lib/api/json/document";
import { serializeContractDocument } from "@/lib/api/serializers";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { bodyDigest } from "@/lib/services/contracts/body-digest";
import { getContractDocument } from "@/lib/services/contracts/get-contract-document";
import { loadContractDocument, type TLoadedDocument } from "@/lib/services/contracts/load-contract-document";
import { updateContractBody } from "@/lib/services/contracts/update-contract-body";

/** The document with the ETag of its text. */
const answer = (loaded: TLoadedDocument, origin: string) =>
  json(serializeContractDocument(loaded, { origin }), { headers: { ETag: documentEtag(loaded.contract.id, bodyDigest(loaded.body).sha256) } });

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getContractDocument, async ({ prisma, actor, params, origin }) =>
    answer(await getContractDocument({ db: prisma, actor, contractId: params.contract_id }), origin),
  ),
  /** docs/documents.md, with `If-Match` (412 when stale) and the new `ETag` in the answer. */
  handle(ENDPOINTS.updateContractBody, async ({ prisma, actor, params, body, ifMatch, origin, requestId }) => {
    const contractId = params.contract_id;
    await documentUpdate({ contractId, ifMatch }, (expectedVersions) =>
      updateContractBody({ db: prisma, actor, contractId, request: body, requestId, expectedVersions }),
    );
    return answer(await loadContractDocument(prisma, contractId), origin);
  }),
);
