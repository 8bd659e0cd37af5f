import { endpointRoute, handle } from "@/lib/api/endpoint";
import { json } from "@/lib/api/response";
import { paginated } from "@/lib/api/pagination";
import { serializeWebhook } from "@/lib/api/serializers";
import { env } from "@/lib/env";
import type { TCreatedWebhook, TWebhookList } from "@/lib/schemas";
import { ENDPOINTS } from "@/lib/schemas/endpoints";
import { createWebhook } from "@/lib/services/webhooks/create-webhook";
import { listWebhooks } from "@/lib/services/webhooks/list-webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = endpointRoute(
  handle(ENDPOINTS.listWebhooks, async ({ prisma, actor, query, origin }) => {
    const { count, rows } = await listWebhooks({ db: prisma, actor, page: query });
    const data = rows.map((row) => serializeWebhook(row, { origin }));
    return json(paginated({ origin, path: ENDPOINTS.listWebhooks.path, limit: query.limit, offset: query.offset, count, data }) satisfies TWebhookList);
  }),
  handle(ENDPOINTS.createWebhook, async ({ prisma, actor, body, origin, requestId }) => {
    const { webhook, secret } = await createWebhook({
      db: prisma,
      actor,
      callbackUrl: body.callback_url,
      description: body.description,
      events: body.events,
      workspaceIds: body.workspace_ids,
      linkOrigin: origin,
      allowPrivate: env().WEBHOOK_ALLOW_PRIVATE_URLS === "1",
      requestId,
    });
    return json({ ...serializeWebhook(webhook, { origin }), secret } satisfies TCreatedWebhook);
  }),
);
