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
import {
  ZApiErrorSchema,
  ZContractListQuerySchema,
  ZContractListSchema,
  ZContractPathParamsSchema,
  ZContractSchema,
  ZCreateContractRequestSchema,
  ZDataFieldListSchema,
  ZDataFieldPathParamsSchema,
  ZDataFieldSchema,
  ZErrorCodeListSchema,
  ZErrorCodePathParamsSchema,
  ZErrorCodeSchema,
  ZPaginationQuerySchema,
  ZParticipantPathParamsSchema,
  ZParticipantSchema,
  ZPartyListSchema,
  ZPartyPathParamsSchema,
  ZPartySchema,
  ZPingSchema,
  ZTemplateListQuerySchema,
  ZTemplateListSchema,
  ZTemplatePathParamsSchema,
  ZTemplateSchema,
  ZTemplateTypeListSchema,
  ZTemplateTypePathParamsSchema,
  ZTemplateTypeSchema,
  ZUpdateParticipantRequestSchema,
  ZUserListSchema,
  ZWorkspaceListSchema,
} from "@/lib/schemas";

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

type ErrorStatus = keyof typeof errors;

function withErrors(ok: ZodOpenApiResponseObject, statuses: readonly ErrorStatus[]): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = { "200": ok };
  for (const status of statuses) responses[`${status}`] = errors[status];
  return responses;
}

// Every authenticated call can fail these ways, besides its own.
const READ_ERRORS = [400, 401, 404, 429, 503] as const;
const LIST_ERRORS = [400, 401, 429, 503] as const;
const WRITE_ERRORS = [400, 401, 403, 404, 409, 413, 415, 429, 503] as const;

function ok(description: string, schema: z.ZodType, headers = requestIdHeader): ZodOpenApiResponseObject {
  return { description, headers, content: { "application/json": { schema } } };
}

// --- Operations -----------------------------------------------------------------------------------

type Read = { id: string; summary: string; tag: string; schema: z.ZodType; path?: z.ZodObject; query?: z.ZodObject };

function get({ id, summary, tag, schema, path, query }: Read, errorStatuses: readonly ErrorStatus[]): ZodOpenApiOperationObject {
  return {
    operationId: id,
    summary,
    tags: [tag],
    requestParams: { ...(path ? { path } : {}), ...(query ? { query } : {}) },
    responses: withErrors(ok("OK", schema), errorStatuses),
  };
}

const page = ZPaginationQuerySchema({ allowAll: false });
const childPage = ZPaginationQuerySchema({ allowAll: true });

const etagHeader = z.object({
  ...requestIdHeader.shape,
  ETag: z.string().meta({ description: "The participant's version; send it as `If-Match` to update only that version." }),
});

const participantPaths: ZodOpenApiPathsObject = {
  "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}": {
    get: {
      operationId: "getParticipant",
      summary: "Get a participant",
      tags: ["Participants"],
      requestParams: { path: ZParticipantPathParamsSchema },
      responses: withErrors(ok("The participant, with `_links`.", ZParticipantSchema, etagHeader), READ_ERRORS),
    },
    put: {
      operationId: "updateParticipant",
      summary: "Update a participant",
      description:
        "Changes only the attributes sent; `{}` changes nothing and answers the participant as it is. Options must be " +
        "offered by the contract's template; e-mail and phone number are required as the chosen options say; a " +
        "signatory needs `_permissions.contract:update`. Only while the contract is draft or pending (else 409).",
      tags: ["Participants"],
      requestParams: {
        path: ZParticipantPathParamsSchema,
        header: z.object({
          "If-Match": z.string().optional().meta({ description: "Update only if the participant still has this ETag." }),
        }),
      },
      requestBody: { required: true, content: { "application/json": { schema: ZUpdateParticipantRequestSchema } } },
      responses: withErrors(ok("The updated participant, with `_links`.", ZParticipantSchema, etagHeader), [
        ...WRITE_ERRORS,
        412,
      ]),
    },
  },
};

const contractPaths: ZodOpenApiPathsObject = {
  "/v1/contracts": {
    get: get(
      { id: "listContracts", summary: "List contracts", tag: "Contracts", schema: ZContractListSchema, query: ZContractListQuerySchema },
      LIST_ERRORS,
    ),
  },
  "/v1/contracts/create": {
    post: {
      operationId: "createContract",
      summary: "Create a contract",
      description:
        "Creates a contract from a template in a workspace, with an owner-side party holding the calling user as " +
        "organizer and the counterparties sent. Without `x-service-user-email` the anonymous admin creates it. " +
        "Nothing is written unless everything is valid.",
      tags: ["Contracts"],
      requestParams: {
        header: z.object({
          "Idempotency-Key": z
            .string()
            .optional()
            .meta({ description: "Retrying with the same key and body answers the first result instead of creating again." }),
        }),
      },
      requestBody: { required: true, content: { "application/json": { schema: ZCreateContractRequestSchema } } },
      responses: withErrors(ok("The created contract.", ZContractSchema), WRITE_ERRORS),
    },
  },
  "/v1/contracts/{contract_id}": {
    get: get(
      { id: "getContract", summary: "Get a contract", tag: "Contracts", schema: ZContractSchema, path: ZContractPathParamsSchema },
      READ_ERRORS,
    ),
  },
  "/v1/contracts/{contract_id}/parties": {
    get: get(
      {
        id: "listParties",
        summary: "List the parties of a contract",
        tag: "Parties",
        schema: ZPartyListSchema,
        path: ZContractPathParamsSchema,
        query: childPage,
      },
      READ_ERRORS,
    ),
  },
  "/v1/contracts/{contract_id}/parties/{party_id}": {
    get: get(
      { id: "getParty", summary: "Get a party", tag: "Parties", schema: ZPartySchema, path: ZPartyPathParamsSchema },
      READ_ERRORS,
    ),
  },
  ...participantPaths,
  "/v1/contracts/{contract_id}/data_fields": {
    get: get(
      {
        id: "listDataFields",
        summary: "List the data fields of a contract",
        tag: "Data fields",
        schema: ZDataFieldListSchema,
        path: ZContractPathParamsSchema,
        query: childPage,
      },
      READ_ERRORS,
    ),
  },
  "/v1/contracts/{contract_id}/data_fields/{data_field_id}": {
    get: get(
      {
        id: "getDataField",
        summary: "Get a data field of a contract",
        tag: "Data fields",
        schema: ZDataFieldSchema,
        path: ZDataFieldPathParamsSchema,
      },
      READ_ERRORS,
    ),
  },
};

const lookupPaths: ZodOpenApiPathsObject = {
  "/v1/ping": {
    get: {
      operationId: "ping",
      summary: "Readiness",
      description: "200 once the database is migrated and ready; 503 before. Needs no credentials.",
      tags: ["Service"],
      security: [],
      responses: withErrors(ok("Ready.", ZPingSchema), [503]),
    },
  },
  "/v1/openapi.json": {
    get: {
      operationId: "getOpenApiDocument",
      summary: "This document",
      tags: ["Service"],
      security: [],
      responses: { "200": { description: "The OpenAPI 3.1 document of this API.", content: { "application/json": { schema: z.object({}).loose() } } } },
    },
  },
  "/v1/error_codes": {
    get: {
      ...get({ id: "listErrorCodes", summary: "List error codes", tag: "Service", schema: ZErrorCodeListSchema, query: page }, [400]),
      security: [],
      description: "Every `error_code` the API answers with, and what it means. Needs no credentials.",
    },
  },
  "/v1/error_codes/{code}": {
    get: {
      ...get({ id: "getErrorCode", summary: "Get an error code", tag: "Service", schema: ZErrorCodeSchema, path: ZErrorCodePathParamsSchema }, [400, 404]),
      security: [],
      description: "The `type` of every error body links here. Needs no credentials.",
    },
  },
  "/v1/workspaces": {
    get: get({ id: "listWorkspaces", summary: "List workspaces", tag: "Workspaces", schema: ZWorkspaceListSchema, query: page }, LIST_ERRORS),
  },
  "/v1/users": {
    get: get({ id: "listUsers", summary: "List users", tag: "Users", schema: ZUserListSchema, query: page }, LIST_ERRORS),
  },
  "/v1/templates": {
    get: get(
      { id: "listTemplates", summary: "List templates", tag: "Templates", schema: ZTemplateListSchema, query: ZTemplateListQuerySchema },
      LIST_ERRORS,
    ),
  },
  "/v1/templates/{template_id}": {
    get: get(
      { id: "getTemplate", summary: "Get a template", tag: "Templates", schema: ZTemplateSchema, path: ZTemplatePathParamsSchema },
      READ_ERRORS,
    ),
  },
  "/v1/template_types": {
    get: get(
      { id: "listTemplateTypes", summary: "List template types", tag: "Template types", schema: ZTemplateTypeListSchema, query: page },
      LIST_ERRORS,
    ),
  },
  "/v1/template_types/{template_type_id}": {
    get: get(
      {
        id: "getTemplateType",
        summary: "Get a template type",
        tag: "Template types",
        schema: ZTemplateTypeSchema,
        path: ZTemplateTypePathParamsSchema,
      },
      READ_ERRORS,
    ),
  },
};

// --- Document -------------------------------------------------------------------------------------

const DESCRIPTION = `The contract service API.

Authenticate every call (except \`/v1/ping\`) with \`x-service-api-token\`; name the user you act for
with \`x-service-user-email\`, or omit it to act as the anonymous admin. Lists are paginated with
\`limit\` (1–100, default 100; \`all\` on a contract's parties and data fields) and \`offset\` (0–19900).
Timestamps are ISO 8601 in UTC (\`+00:00\`). A method a path does not support answers 405.

Every error has the \`Error\` shape; its \`error_code\` is one of \`x-error-codes\` and begins with the HTTP status.`;

export function buildOpenApiDocument(): object {
  return createDocument({
    openapi: "3.1.0",
    info: { title: "Contract service", version: "1.0.0", description: DESCRIPTION },
    security: [{ apiToken: [], userEmail: [] }, { apiToken: [] }],
    tags: ["Service", "Contracts", "Parties", "Participants", "Data fields", "Templates", "Template types", "Workspaces", "Users"].map(
      (name) => ({ name }),
    ),
    paths: { ...lookupPaths, ...contractPaths },
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
