import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { isoTime } from "@/lib/api/serializers/time";
import type { TSigningLink } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { getSigningLink } from "@/lib/services/signing/get-signing-link";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getSigningLink, async ({ prisma, actor, params, origin }) => {
    const link = await getSigningLink({ db: prisma, actor, contractId: params.contract_id, partyId: params.party_id, participantId: params.participant_id, linkOrigin: origin });
    const body: TSigningLink = { url: link.url, expiry_time: link.expiresAt ? isoTime(link.expiresAt) : null };
    // A credential: never kept by a cache on the way.
    return json(body, { headers: { "Cache-Control": "no-store" } });
  }),
);
