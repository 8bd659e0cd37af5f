import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { serializeWebhookDelivery } from "@/lib/api/serializers";
import type { TWebhookDelivery } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { retryWebhookDelivery } from "@/lib/services/webhooks/retry-webhook-delivery";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.retryWebhookDelivery, async ({ prisma, actor, params, requestId }) => {
    const row = await retryWebhookDelivery({ db: prisma, actor, webhookId: params.webhook_id, deliveryId: params.delivery_id, requestId });
    return json(serializeWebhookDelivery(row) satisfies TWebhookDelivery);
  }),
);
