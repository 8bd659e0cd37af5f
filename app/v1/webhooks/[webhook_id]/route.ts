import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { serializeWebhook } from "@/lib/api/serializers";
import type { TWebhook } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { deleteWebhook } from "@/lib/services/webhooks/delete-webhook";
import { getWebhook } from "@/lib/services/webhooks/get-webhook";
import { updateWebhook } from "@/lib/services/webhooks/update-webhook";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.getWebhook, async ({ prisma, actor, params, origin }) => {
    const row = await getWebhook({ db: prisma, actor, webhookId: params.webhook_id });
    return json(serializeWebhook(row, { origin }) satisfies TWebhook);
  }),
  handle(ENDPOINTS.updateWebhook, async ({ prisma, actor, params, body, origin, requestId }) => {
    const row = await updateWebhook({ db: prisma, actor, webhookId: params.webhook_id, active: body.active, requestId });
    return json(serializeWebhook(row, { origin }) satisfies TWebhook);
  }),
  handle(ENDPOINTS.deleteWebhook, async ({ prisma, actor, params, requestId }) => {
    await deleteWebhook({ db: prisma, actor, webhookId: params.webhook_id, requestId });
    return new Response(null, { status: 204 });
  }),
);
