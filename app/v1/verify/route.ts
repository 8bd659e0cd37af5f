import { endpointRoute, handle, readBodyBytes } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { serializeSealVerdict } from "@/lib/api/serializers";
import { MAX_ATTACHMENT_BYTES } from "@/lib/domain/file-content";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { verifySealedPdf } from "@/lib/services/seal/verify-sealed-pdf";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.verifySealedPdf, async ({ req, prisma }) => {
    // The same bound as an attachment: a sealed copy is far smaller.
    const pdf = await readBodyBytes(req, MAX_ATTACHMENT_BYTES);
    return json(serializeSealVerdict(await verifySealedPdf({ db: prisma!, pdf })));
  }),
);
