import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { paginated } from "@/lib/api/pagination";
import { serializeEmailMessage } from "@/lib/api/serializers";
import type { TEmailMessageList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { listEmailMessages } from "@/lib/services/mail/list-email-messages";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listEmailMessages, async ({ prisma, actor, query, origin }) => {
    const { count, rows } = await listEmailMessages({ db: prisma, actor, query });
    const { limit, offset, contract_id, status } = query;
    const data = rows.map(serializeEmailMessage);
    return json(paginated({ origin, path: ENDPOINTS.listEmailMessages.path, query: { contract_id, status }, limit, offset, count, data }) satisfies TEmailMessageList);
  }),
);
