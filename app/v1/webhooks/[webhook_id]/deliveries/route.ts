import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { paginated } from "@/lib/api/pagination";
import { serializeWebhookDelivery } from "@/lib/api/serializers";
import type { TWebhookDeliveryList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { listWebhookDeliveries } from "@/lib/services/webhooks/list-webhook-deliveries";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listWebhookDeliveries, async ({ prisma, actor, params, query, origin }) => {
    const { count, rows } = await listWebhookDeliveries({ db: prisma, actor, webhookId: params.webhook_id, page: query });
    const path = `/v1/webhooks/${params.webhook_id}/deliveries`;
    return json(paginated({ origin, path, limit: query.limit, offset: query.offset, count, data: rows.map(serializeWebhookDelivery) }) satisfies TWebhookDeliveryList);
  }),
);
