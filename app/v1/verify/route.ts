import { endpointRoute, handle, readBodyBytes } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { serializeSealVerdict } from "@/lib/api/serializers";
import { VERIFY_MAX_BODY_BYTES } from "@/lib/http/front-door";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { verifySealedPdf } from "@/lib/services/seal/verify-sealed-pdf";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.verifySealedPdf, async ({ req, prisma }) => {
    // A sealed copy of the largest uploaded PDF fits (the front door lets this much through).
    const pdf = await readBodyBytes(req, VERIFY_MAX_BODY_BYTES);
    return json(serializeSealVerdict(await verifySealedPdf({ db: prisma!, pdf })));
  }),
);
