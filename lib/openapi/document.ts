// The /v1 API reference, generated from the same zod schemas the routes parse with, so the document
// cannot drift from what the service accepts and answers.

import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from "zod-openapi";

import { ERROR_CODES } from "@/lib/domain/error-codes";
import { WEBHOOK_EVENT_TYPE_NAMES, WEBHOOK_EVENT_TYPES } from "@/lib/domain/webhooks";
import { ZApiErrorSchema, ZWebhookPayloadSchema } from "@/lib/schemas";
import { ENDPOINTS, type TEndpoint, type TErrorStatus } from "@/lib/schemas/endpoints";

// --- Errors ---------------------------------------------------------------------------------------

const errorCodes = Object.entries(ERROR_CODES).map(([key, entry]) => ({ key, ...entry }));

const requestIdHeader = z.object({
  "X-Request-Id": z.string().meta({ description: "Also in the error body and in the server's log line of this request." }),
});
const retryAfterHeader = z.object({
  ...requestIdHeader.shape,
  "Retry-After": z.string().meta({ description: "Seconds to wait before retrying." }),
});

/** One reusable response per error status; its description lists the codes a client can act on. */
function errorResponse(id: string, status: number, summary: string, headers = requestIdHeader): ZodOpenApiResponseObject {
  const codes = errorCodes
    .filter((entry) => entry.status === status)
    .map((entry) => `- \`${entry.code}\`: ${entry.description}`)
    .join("\n");
  return {
    id,
    description: codes ? `${summary}\n\n${codes}` : summary,
    headers,
    content: { "application/json": { schema: ZApiErrorSchema } },
  };
}

const errors = {
  400: errorResponse("BadRequest", 400, "The request is not valid; `parameter_problems` names each offending field."),
  401: errorResponse("Unauthorized", 401, "The API token or the user e-mail is not valid."),
  403: errorResponse("Forbidden", 403, "The caller may see the resource but not change it."),
  404: errorResponse("NotFound", 404, "The resource does not exist or is not visible to the caller."),
  405: errorResponse("MethodNotAllowed", 405, "The path does not support this method; `Allow` lists those it does."),
  409: errorResponse("Conflict", 409, "The request conflicts with the current state of the resource."),
  412: errorResponse("PreconditionFailed", 412, "`If-Match` names a version the resource no longer has."),
  413: errorResponse("ContentTooLarge", 413, "The body is larger than 1 MiB."),
  415: errorResponse("UnsupportedMediaType", 415, "The body was not sent as `application/json`."),
  429: errorResponse("TooManyRequests", 429, "Too many requests; wait as `Retry-After` says.", retryAfterHeader),
  503: errorResponse("ServiceUnavailable", 503, "The service is starting or its database is unreachable; retry.", retryAfterHeader),
} as const;

function withErrors(ok: ZodOpenApiResponseObject, statuses: readonly TErrorStatus[], success: 200 | 204 = 200): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = { [`${success}`]: ok };
  for (const status of statuses) responses[`${status}`] = errors[status];
  return responses;
}

function ok(description: string, schema: z.ZodType, headers = requestIdHeader, mediaType = "application/json"): ZodOpenApiResponseObject {
  return { description, headers, content: { [mediaType]: { schema } } };
}

// --- Operations: one per declared endpoint (lib/schemas/endpoints.ts) -----------------------------

const etagHeader = z.object({
  ...requestIdHeader.shape,
  ETag: z.string().meta({ description: "The resource's version; send it as `If-Match` to change only that version." }),
});
const ifMatchHeader = {
  "If-Match": z.string().optional().meta({ description: "Change only if the resource still has this ETag." }),
};
const idempotencyKeyHeader = {
  "Idempotency-Key": z
    .string()
    .optional()
    .meta({ description: "Retrying with the same key and body answers the first result instead of creating again." }),
};

function operation(endpoint: TEndpoint): ZodOpenApiOperationObject {
  const header = { ...(endpoint.ifMatch ? ifMatchHeader : {}), ...(endpoint.idempotencyKey ? idempotencyKeyHeader : {}) };
  const requestParams = {
    ...(endpoint.params ? { path: endpoint.params } : {}),
    ...(endpoint.query ? { query: endpoint.query } : {}),
    ...(Object.keys(header).length > 0 ? { header: z.object(header) } : {}),
  };
  const answer: ZodOpenApiResponseObject = endpoint.response
    ? ok(endpoint.responseDescription ?? "OK", endpoint.response, endpoint.etag ? etagHeader : requestIdHeader, endpoint.responseMediaType)
    : { description: endpoint.responseDescription ?? "No content.", headers: requestIdHeader };
  return {
    operationId: endpoint.id,
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    tags: [endpoint.tag],
    ...(endpoint.auth === false ? { security: [] } : {}),
    requestParams,
    ...(endpoint.body ? { requestBody: { required: true, content: { [endpoint.multipart ? "multipart/form-data" : "application/json"]: { schema: endpoint.body } } } } : {}),
    responses: withErrors(answer, endpoint.errors, endpoint.successStatus),
  };
}

function paths(): ZodOpenApiPathsObject {
  const out: ZodOpenApiPathsObject = {};
  for (const endpoint of Object.values(ENDPOINTS) as TEndpoint[]) {
    const method = endpoint.method.toLowerCase() as "get" | "post" | "put" | "delete";
    out[endpoint.path] = { ...out[endpoint.path], [method]: operation(endpoint) };
  }
  return out;
}

// --- Webhooks: what the service POSTs to subscribers, one entry per event type ------------------

const webhookHeaders = z.object({
  "webhook-id": z.string().meta({ description: "The event's id (`evt_…`), the same on every retry: de-duplicate with it." }),
  "webhook-timestamp": z.string().meta({ description: "Seconds since the epoch when this attempt was signed." }),
  "webhook-signature": z.string().meta({
    description:
      "`v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part of " +
      "the subscription's `whsec_…` secret (Standard Webhooks; verify with its libraries).",
  }),
});

function webhooks(): ZodOpenApiPathsObject {
  const out: ZodOpenApiPathsObject = {};
  for (const type of WEBHOOK_EVENT_TYPE_NAMES) {
    const { resource, summary } = WEBHOOK_EVENT_TYPES[type];
    const data =
      resource === "deleted"
        ? "`data` is what the audit trail kept of the removed resource (`deleted: true`, `before`)."
        : `\`data\` is the ${resource.replace("_", " ")} as its GET route answers it when the event is queued; if it is gone by then, what the audit trail kept (\`deleted: true\`).`;
    out[type] = {
      post: {
        operationId: `webhook_${type.replace(".", "_")}`,
        summary: type,
        description: `${summary} ${data}`,
        tags: ["Webhooks"],
        requestParams: { header: webhookHeaders },
        requestBody: { required: true, content: { "application/json": { schema: ZWebhookPayloadSchema(type) } } },
        responses: {
          "200": { description: "Any 2xx within 10 seconds acknowledges the event. Anything else (a redirect, an error, no answer) is retried with back-off for 24 hours." },
        },
      },
    };
  }
  return out;
}

// --- Document -------------------------------------------------------------------------------------

const DESCRIPTION = `The contract service API.

Authenticate every call (except \`/v1/ping\`) with \`x-service-api-token\`; name the user you act for
with \`x-service-user-email\`, or omit it to act as the anonymous admin. Clients written for the Oneflow API
may send the same as \`x-oneflow-api-token\` and \`x-oneflow-user-email\`. Lists are paginated with
\`limit\` (1–100, default 100; \`all\` on a contract's parties and data fields) and \`offset\` (0–19900).
Timestamps are ISO 8601 in UTC (\`+00:00\`). A method a path does not support answers 405.

Every error has the \`Error\` shape; its \`error_code\` is one of \`x-error-codes\` and begins with the HTTP status.`;

export function buildOpenApiDocument(): object {
  return createDocument({
    openapi: "3.1.0",
    info: { title: "Contract service", version: "1.0.0", description: DESCRIPTION },
    security: [{ apiToken: [], userEmail: [] }, { apiToken: [] }],
    tags: ["Service", "Contracts", "Parties", "Participants", "Data fields", "Files", "Placements", "Templates", "Template types", "Workspaces", "Users", "Outbox", "Webhooks"].map(
      (name) => ({ name }),
    ),
    paths: paths(),
    webhooks: webhooks(),
    components: {
      securitySchemes: {
        apiToken: {
          type: "apiKey",
          in: "header",
          name: "x-service-api-token",
          description: "An API token created by an admin in the web app.",
        },
        userEmail: {
          type: "apiKey",
          in: "header",
          name: "x-service-user-email",
          description: "E-mail of the active user the call acts for. Omit it to act as the anonymous admin.",
        },
      },
      // 405 belongs to no documented operation (it answers the ones that do not exist), so it is listed here.
      responses: { MethodNotAllowed: errors[405] },
    },
    "x-error-codes": errorCodes,
  });
}
