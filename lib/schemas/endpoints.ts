// Every /v1 endpoint, declared once: method, path, the schemas of its path, query and body, its
// answer, the error statuses it can give and its options. This one table drives the handlers'
// parsing (lib/api/endpoint.ts), the OpenAPI document (lib/openapi/document.ts) and the pages' typed
// client (lib/client/endpoints.generated.ts, written from it by `npm run generate:client`).
// Adding an endpoint: one entry here, one service, one route file that hands the entry to
// `endpointRoute`, one test.
import { z } from "zod";

import { ZAuditEventListSchema } from "./audit-event";
import { ZCreatePlacementRequestSchema, ZPlacementListSchema, ZPlacementPathParamsSchema, ZPlacementSchema, ZUpdatePlacementRequestSchema } from "./placement";
import {
  ZContractCsvSchema,
  ZContractExportQuerySchema,
  ZContractListQuerySchema,
  ZContractListSchema,
  ZContractPathParamsSchema,
  ZContractSchema,
  ZCreateContractRequestSchema,
} from "./contract";
import { ZDataFieldListSchema, ZDataFieldPathParamsSchema, ZDataFieldSchema, ZUpdateDataFieldRequestSchema } from "./data-field";
import { ZEmailMessageListQuerySchema, ZEmailMessageListSchema } from "./email-message";
import { ZErrorCodeListSchema, ZErrorCodePathParamsSchema, ZErrorCodeSchema } from "./error-code";
import { ZPaginationQuerySchema } from "./pagination";
import { ZCreateParticipantRequestSchema, ZParticipantPathParamsSchema, ZParticipantSchema, ZUpdateParticipantRequestSchema } from "./participant";
import { ZCreatePartyRequestSchema, ZPartyListSchema, ZPartyPathParamsSchema, ZPartySchema } from "./party";
import { ZPingSchema } from "./ping";
import { ZAuditChainVerdictSchema, ZSealVerificationSchema } from "./seal";
import { ZPublishContractRequestSchema, ZPublishReadinessSchema, ZSigningLinkSchema, ZWithdrawContractRequestSchema } from "./publish";
import { ZTemplateListQuerySchema } from "./template-list-query";
import { ZTemplateDetailSchema, ZTemplateListSchema, ZTemplatePathParamsSchema } from "./template";
import {
  ZContractDocumentSchema,
  ZContractFileListSchema,
  ZContractFilePathParamsSchema,
  ZContractFileQuerySchema,
  ZContractFileSchema,
  ZUpdateContractBodyRequestSchema,
  ZUpdateTemplateRequestSchema,
  ZUploadContractFileRequestSchema,
} from "./document";
import { ZTemplateTypeListSchema, ZTemplateTypePathParamsSchema, ZTemplateTypeSchema } from "./template-type";
import { ZUserListSchema } from "./user";
import { ZWorkspaceListSchema, ZWorkspacePathParamsSchema, ZWorkspaceSchema } from "./workspace";
import { ZDashboardSchema } from "./dashboard";
import {
  ZContractReminderListSchema,
  ZContractReminderPathParamsSchema,
  ZContractReminderSchema,
  ZCreateContractReminderRequestSchema,
  ZLifecycleSettingsRequestSchema,
  ZTerminateContractRequestSchema,
} from "./lifecycle";
import { ZContractReminderSettingsSchema, ZReminderSettingsSchema, ZUpdateContractReminderSettingsRequestSchema, ZUpdateReminderSettingsRequestSchema } from "./reminder-settings";
import {
  ZCreatedWebhookSchema,
  ZCreateWebhookRequestSchema,
  ZUpdateWebhookRequestSchema,
  ZWebhookDeliveryListSchema,
  ZWebhookDeliveryPathParamsSchema,
  ZWebhookDeliverySchema,
  ZWebhookListSchema,
  ZWebhookPathParamsSchema,
  ZWebhookSchema,
} from "./webhook";

export type THttpMethod = "GET" | "POST" | "PUT" | "DELETE";
export type TErrorStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 429 | 503;

export interface TEndpoint {
  /** The OpenAPI operationId and the typed client's name for it. */
  id: string;
  method: THttpMethod;
  /**
   * With `{name}` for each path parameter; every path parameter is a positive integer, except one whose
   * schema is marked `selfParsedPathParam` (lib/schemas/common.ts), which that schema parses.
   */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** `false`: answers without credentials (readiness, documentation). */
  auth?: false;
  /** `false`: answers without opening the database. */
  database?: false;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The success answer's body; none for a 204. */
  response?: z.ZodType;
  /** 200 unless said otherwise. */
  successStatus?: 200 | 204;
  responseDescription?: string;
  /** The answer carries the resource's `ETag`. */
  etag?: true;
  /** Takes `If-Match` (412 when the resource has changed). */
  ifMatch?: true;
  /** Takes `Idempotency-Key`: a retry with the same key and body answers the first result. */
  idempotencyKey?: true;
  /** The body is `multipart/form-data` (read by the route itself); `body` describes its fields. */
  multipart?: true;
  /** The success answer's media type when it is not JSON (a download); `response` then describes its text. */
  responseMediaType?: "text/csv";
  /** Error statuses besides 405 (which any path gives for a method it does not serve). */
  errors: readonly TErrorStatus[];
}

const endpoint = <const E extends TEndpoint>(e: E): E => e;

// Every authenticated call can fail these ways, besides its own.
const READ_ERRORS = [400, 401, 404, 429, 503] as const;
const LIST_ERRORS = [400, 401, 429, 503] as const;
const WRITE_ERRORS = [400, 401, 403, 404, 409, 413, 415, 429, 503] as const;

const page = ZPaginationQuerySchema({ allowAll: false });
const childPage = ZPaginationQuerySchema({ allowAll: true });

export const ENDPOINTS = {
  ping: endpoint({
    id: "ping",
    method: "GET",
    path: "/v1/ping",
    summary: "Readiness",
    description: "200 once the database is migrated and ready; 503 before. Needs no credentials.",
    tag: "Service",
    auth: false,
    database: false,
    response: ZPingSchema,
    responseDescription: "Ready.",
    errors: [503],
  }),
  getOpenApiDocument: endpoint({
    id: "getOpenApiDocument",
    method: "GET",
    path: "/v1/openapi.json",
    summary: "This document",
    tag: "Service",
    auth: false,
    database: false,
    response: z.object({}).loose(),
    responseDescription: "The OpenAPI 3.1 document of this API.",
    errors: [],
  }),
  listErrorCodes: endpoint({
    id: "listErrorCodes",
    method: "GET",
    path: "/v1/error_codes",
    summary: "List error codes",
    description: "Every `error_code` the API answers with, and what it means. Needs no credentials.",
    tag: "Service",
    auth: false,
    database: false,
    query: page,
    response: ZErrorCodeListSchema,
    errors: [400],
  }),
  getErrorCode: endpoint({
    id: "getErrorCode",
    method: "GET",
    path: "/v1/error_codes/{code}",
    summary: "Get an error code",
    description: "The `type` of every error body links here. Needs no credentials.",
    tag: "Service",
    auth: false,
    database: false,
    params: ZErrorCodePathParamsSchema,
    response: ZErrorCodeSchema,
    errors: [400, 404],
  }),
  listWorkspaces: endpoint({
    id: "listWorkspaces",
    method: "GET",
    path: "/v1/workspaces",
    summary: "List workspaces",
    tag: "Workspaces",
    query: page,
    response: ZWorkspaceListSchema,
    errors: LIST_ERRORS,
  }),
  getWorkspace: endpoint({
    id: "getWorkspace",
    method: "GET",
    path: "/v1/workspaces/{workspace_id}",
    summary: "Get a workspace",
    description: "A workspace the caller has a role in (administrators: any); others are a 404.",
    tag: "Workspaces",
    params: ZWorkspacePathParamsSchema,
    response: ZWorkspaceSchema,
    errors: READ_ERRORS,
  }),
  getWorkspaceReminderSettings: endpoint({
    id: "getWorkspaceReminderSettings",
    method: "GET",
    path: "/v1/workspaces/{workspace_id}/reminder_settings",
    summary: "A workspace's reminder defaults",
    description: "The reminders every contract of the workspace gets unless it has its own settings (docs/mail.md \"Reminders\").",
    tag: "Workspaces",
    params: ZWorkspacePathParamsSchema,
    response: ZReminderSettingsSchema,
    errors: READ_ERRORS,
  }),
  updateWorkspaceReminderSettings: endpoint({
    id: "updateWorkspaceReminderSettings",
    method: "PUT",
    path: "/v1/workspaces/{workspace_id}/reminder_settings",
    summary: "Change a workspace's reminder defaults",
    description: "Administrators and the workspace's editors (403). Attributes left out keep their value; one out of range is a 400 naming it, and nothing changes.",
    tag: "Workspaces",
    params: ZWorkspacePathParamsSchema,
    body: ZUpdateReminderSettingsRequestSchema,
    response: ZReminderSettingsSchema,
    errors: [400, 401, 403, 404, 413, 415, 429, 503],
  }),
  getDashboard: endpoint({
    id: "getDashboard",
    method: "GET",
    path: "/v1/dashboard",
    summary: "What needs attention",
    description:
      "How many of the contracts the caller may see are waiting for the caller's signature, have an undelivered invitation, expire within 7 days, " +
      "were declined in the last 30 days, or are drafts untouched for 14 days; each with the `GET /v1/contracts` filters that list them.",
    tag: "Contracts",
    response: ZDashboardSchema,
    errors: LIST_ERRORS,
  }),
  listUsers: endpoint({
    id: "listUsers",
    method: "GET",
    path: "/v1/users",
    summary: "List users",
    tag: "Users",
    query: page,
    response: ZUserListSchema,
    errors: LIST_ERRORS,
  }),
  listTemplates: endpoint({
    id: "listTemplates",
    method: "GET",
    path: "/v1/templates",
    summary: "List templates",
    tag: "Templates",
    query: ZTemplateListQuerySchema,
    response: ZTemplateListSchema,
    errors: LIST_ERRORS,
  }),
  getTemplate: endpoint({
    id: "getTemplate",
    method: "GET",
    path: "/v1/templates/{template_id}",
    summary: "Get a template",
    tag: "Templates",
    params: ZTemplatePathParamsSchema,
    response: ZTemplateDetailSchema,
    errors: READ_ERRORS,
  }),
  updateTemplate: endpoint({
    id: "updateTemplate",
    method: "PUT",
    path: "/v1/templates/{template_id}",
    summary: "Change a template's text",
    description:
      "Replaces the template's `body` (docs/api.md, “Documents and files”). Administrators, and editors of every workspace the template is " +
      "used in, may change it. Every placeholder must name a data field of the template (400 naming the section); the " +
      "body is at most 200 KB. Contracts already created keep the text they copied.",
    tag: "Templates",
    params: ZTemplatePathParamsSchema,
    body: ZUpdateTemplateRequestSchema,
    response: ZTemplateDetailSchema,
    errors: WRITE_ERRORS,
  }),
  listTemplateTypes: endpoint({
    id: "listTemplateTypes",
    method: "GET",
    path: "/v1/template_types",
    summary: "List template types",
    tag: "Template types",
    query: page,
    response: ZTemplateTypeListSchema,
    errors: LIST_ERRORS,
  }),
  getTemplateType: endpoint({
    id: "getTemplateType",
    method: "GET",
    path: "/v1/template_types/{template_type_id}",
    summary: "Get a template type",
    tag: "Template types",
    params: ZTemplateTypePathParamsSchema,
    response: ZTemplateTypeSchema,
    errors: READ_ERRORS,
  }),
  listContracts: endpoint({
    id: "listContracts",
    method: "GET",
    path: "/v1/contracts",
    summary: "List contracts",
    tag: "Contracts",
    query: ZContractListQuerySchema,
    response: ZContractListSchema,
    errors: LIST_ERRORS,
  }),
  exportContractsCsv: endpoint({
    id: "exportContractsCsv",
    method: "GET",
    path: "/v1/contracts/export.csv",
    summary: "Download a contracts list as CSV",
    description:
      "Every contract `GET /v1/contracts` lists with the same filters and `sort` (no `limit` or `offset`): the caller's workspaces only, " +
      "streamed in batches as it is read (`Content-Disposition: attachment`). A failure after the first bytes ends the download unfinished.",
    tag: "Contracts",
    query: ZContractExportQuerySchema,
    response: ZContractCsvSchema,
    responseMediaType: "text/csv",
    responseDescription: "The contracts, as CSV.",
    errors: LIST_ERRORS,
  }),
  getContractReminderSettings: endpoint({
    id: "getContractReminderSettings",
    method: "GET",
    path: "/v1/contracts/{contract_id}/reminder_settings",
    summary: "A contract's reminder settings",
    description: "The contract's own settings (null: the workspace's default, given in `workspace_defaults`).",
    tag: "Contracts",
    params: ZContractPathParamsSchema,
    response: ZContractReminderSettingsSchema,
    errors: READ_ERRORS,
  }),
  updateContractReminderSettings: endpoint({
    id: "updateContractReminderSettings",
    method: "PUT",
    path: "/v1/contracts/{contract_id}/reminder_settings",
    summary: "Change a contract's reminder settings",
    description:
      "For those who may change the contract (403), while it is a draft or pending (409 `contract_not_pending`). Attributes left out keep their value; " +
      "null returns one to the workspace's default; one out of range is a 400 naming it, and nothing changes.",
    tag: "Contracts",
    params: ZContractPathParamsSchema,
    body: ZUpdateContractReminderSettingsRequestSchema,
    response: ZContractReminderSettingsSchema,
    errors: WRITE_ERRORS,
  }),
  createContract: endpoint({
    id: "createContract",
    method: "POST",
    path: "/v1/contracts/create",
    summary: "Create a contract",
    description:
      "Creates a contract from a template in a workspace, with an owner-side party holding the calling user as " +
      "organizer and the counterparties sent. Without `x-service-user-email` the anonymous admin creates it. " +
      "Nothing is written unless everything is valid.",
    tag: "Contracts",
    body: ZCreateContractRequestSchema,
    response: ZContractSchema,
    responseDescription: "The created contract.",
    idempotencyKey: true,
    errors: WRITE_ERRORS,
  }),
  getContract: endpoint({
    id: "getContract",
    method: "GET",
    path: "/v1/contracts/{contract_id}",
    summary: "Get a contract",
    tag: "Contracts",
    params: ZContractPathParamsSchema,
    response: ZContractSchema,
    errors: READ_ERRORS,
  }),
  deleteContract: endpoint({
    id: "deleteContract",
    method: "DELETE",
    path: "/v1/contracts/{contract_id}",
    summary: "Delete a contract",
    description:
      "Deletes the contract with its parties, participants and data fields; afterwards it is a 404 everywhere. " +
      "Editors may delete drafts; administrators any contract (else 409). The audit trail keeps the deletion.",
    tag: "Contracts",
    params: ZContractPathParamsSchema,
    successStatus: 204,
    responseDescription: "Deleted; no body.",
    errors: [400, 401, 403, 404, 409, 429, 503],
  }),
  publishContract: endpoint({
    id: "publishContract",
    method: "POST",
    path: "/v1/contracts/{contract_id}/publish",
    summary: "Publish a contract",
    description:
      "A draft becomes `pending`: its signing period starts (the template's, 30 days by default), every participant gets " +
      "a personal signing link, and those whose delivery channel is e-mail get an invitation (on an ordered contract, the signatories " +
      "of stage 1 and those who do not sign; each later stage when the one before it has signed). Refused with 409 " +
      "`contract_not_publishable` when the contract is not ready; `parameter_problems` names every reason " +
      "(see `GET …/publish_readiness`).",
    tag: "Contracts",
    params: ZContractPathParamsSchema,
    body: ZPublishContractRequestSchema,
    response: ZContractSchema,
    responseDescription: "The published contract.",
    errors: WRITE_ERRORS,
  }),
  withdrawContract: endpoint({
    id: "withdrawContract",
    method: "POST",
    path: "/v1/contracts/{contract_id}/withdraw",
    summary: "Withdraw a pending contract",
    description:
      "A pending contract becomes `withdrawn`: every signing link stops working, mail not yet sent for it is withdrawn, and each " +
      "participant who was invited is told once by e-mail. Editors and administrators; 409 `contract_not_pending` unless pending. " +
      "The contract and its audit trail stay readable.",
    tag: "Contracts",
    params: ZContractPathParamsSchema,
    body: ZWithdrawContractRequestSchema,
    response: ZContractSchema,
    responseDescription: "The withdrawn contract.",
    errors: WRITE_ERRORS,
  }),
  updateContractLifecycleSettings: endpoint({
    id: "updateContractLifecycleSettings",
    method: "PUT",
    path: "/v1/contracts/{contract_id}/lifecycle_settings",
    summary: "Change a draft's duration settings",
    description:
      "The contract's term (docs: lifecycle): settings left out keep their value, null clears one. While a draft (409 `contract_not_editable` " +
      "after: the signatories agree to the term as published). A combination the duration does not allow, a notice period as long as a " +
      "period or longer, and an end before the start are each a 400 naming the setting; nothing changes.",
    tag: "Contract lifecycle",
    params: ZContractPathParamsSchema,
    body: ZLifecycleSettingsRequestSchema,
    response: ZContractSchema,
    responseDescription: "The contract with its new settings.",
    errors: WRITE_ERRORS,
  }),
  cancelContract: endpoint({
    id: "cancelContract",
    method: "POST",
    path: "/v1/contracts/{contract_id}/cancel",
    summary: "Give notice",
    description:
      "A signed recurring contract given notice by its deadline becomes `canceled` and ends at the end of its current period. After the " +
      "deadline, or for a contract notice does not apply to (no duration, a single period, already ending or ended), 409 " +
      "`lifecycle_action_refused`, saying in one sentence why and the earliest date it can end. Editors and administrators.",
    tag: "Contract lifecycle",
    params: ZContractPathParamsSchema,
    response: ZContractSchema,
    responseDescription: "The contract, canceled.",
    errors: WRITE_ERRORS,
  }),
  terminateContract: endpoint({
    id: "terminateContract",
    method: "POST",
    path: "/v1/contracts/{contract_id}/terminate",
    summary: "End a signed contract early",
    description:
      "Ends it now, or at the end of `date` (today or later, and not before a start date still ahead: 400 naming `date`). It then " +
      "becomes `ended` with sub-state `terminated`. 409 `lifecycle_action_refused` for a contract not signed, already ended, or " +
      "ending by that date anyway. Editors and administrators.",
    tag: "Contract lifecycle",
    params: ZContractPathParamsSchema,
    body: ZTerminateContractRequestSchema,
    response: ZContractSchema,
    responseDescription: "The contract, ending or ended.",
    errors: WRITE_ERRORS,
  }),
  listContractReminders: endpoint({
    id: "listContractReminders",
    method: "GET",
    path: "/v1/contracts/{contract_id}/reminders",
    summary: "A contract's internal reminders",
    description: "Reminders staff set on the contract, by date; sent ones included (`sent_time`).",
    tag: "Contract lifecycle",
    params: ZContractPathParamsSchema,
    response: ZContractReminderListSchema,
    errors: READ_ERRORS,
  }),
  createContractReminder: endpoint({
    id: "createContractReminder",
    method: "POST",
    path: "/v1/contracts/{contract_id}/reminders",
    summary: "Set an internal reminder",
    description:
      "E-mails `note` to the recipient (who must be able to see the contract) on `date`, at 08:00 in the workspace's time zone, once. " +
      "Editors and administrators, in any state of the contract.",
    tag: "Contract lifecycle",
    params: ZContractPathParamsSchema,
    body: ZCreateContractReminderRequestSchema,
    response: ZContractReminderSchema,
    responseDescription: "The reminder.",
    errors: WRITE_ERRORS,
  }),
  deleteContractReminder: endpoint({
    id: "deleteContractReminder",
    method: "DELETE",
    path: "/v1/contracts/{contract_id}/reminders/{reminder_id}",
    summary: "Remove an internal reminder",
    description: "One not yet sent (409 once sent: it stays as a record).",
    tag: "Contract lifecycle",
    params: ZContractReminderPathParamsSchema,
    successStatus: 204,
    responseDescription: "Removed; no body.",
    errors: [400, 401, 403, 404, 409, 429, 503],
  }),
  getPublishReadiness: endpoint({
    id: "getPublishReadiness",
    method: "GET",
    path: "/v1/contracts/{contract_id}/publish_readiness",
    summary: "What stands between a contract and publishing",
    tag: "Contracts",
    params: ZContractPathParamsSchema,
    response: ZPublishReadinessSchema,
    errors: READ_ERRORS,
  }),
  getContractDocument: endpoint({
    id: "getContractDocument",
    method: "GET",
    path: "/v1/contracts/{contract_id}/document",
    summary: "Get the contract's text as it is signed",
    description:
      "The contract's text with its data fields filled in (an empty one shows as `[Field name]` and is listed in " +
      "`missing_data_fields`), its parties and signatories: what the contract page, the signing page and the PDF show.",
    tag: "Contracts",
    params: ZContractPathParamsSchema,
    response: ZContractDocumentSchema,
    etag: true,
    errors: READ_ERRORS,
  }),
  updateContractBody: endpoint({
    id: "updateContractBody",
    method: "PUT",
    path: "/v1/contracts/{contract_id}/document",
    summary: "Change a draft's text",
    description:
      "Replaces the draft's `body`, copied from its template at creation. Placeholders must name the contract's data " +
      "fields. Once published the text is frozen: 409 `contract_text_frozen`. With `If-Match` (the `ETag` of the " +
      "text read), 412 `stale_if_match` when the text changed since.",
    tag: "Contracts",
    params: ZContractPathParamsSchema,
    body: ZUpdateContractBodyRequestSchema,
    response: ZContractDocumentSchema,
    etag: true,
    ifMatch: true,
    errors: [...WRITE_ERRORS, 412],
  }),
  listContractFiles: endpoint({
    id: "listContractFiles",
    method: "GET",
    path: "/v1/contracts/{contract_id}/files",
    summary: "List the files of a contract",
    description:
      "Oneflow's file types: `contract` (the contract as a PDF, marked “Draft — not final” until signed), " +
      "`verification` (the sealed signed copy, once signed) and `attachment`.",
    tag: "Files",
    params: ZContractPathParamsSchema,
    query: childPage,
    response: ZContractFileListSchema,
    errors: READ_ERRORS,
  }),
  uploadContractFile: endpoint({
    id: "uploadContractFile",
    method: "POST",
    path: "/v1/contracts/{contract_id}/files",
    summary: "Attach a file to a draft, or upload its document as a PDF",
    description:
      "`multipart/form-data` with `upload_as` and `file`. `attachment`: PDF, PNG or JPEG, told by content (415 " +
      "otherwise); at most 10 MB (413) and 20 a contract (409); a PDF must parse within bounds (400). `expanded_pdf`: " +
      "a PDF (415 otherwise) of at most 25 MB (413) and 300 pages that becomes the contract's document, kept as the seal reads it " +
      "(written out once: one copy of each object, as the seal reads and stamps it), " +
      "replacing an earlier upload; refused with one sentence (400 `file_unreadable`) when encrypted, broken, signed " +
      "already, carrying JavaScript, launch actions, actions that open other files or send form data, sound, video or 3D, content hidden on screen (layers, annotations), embedded files or XFA, with pages over 2,000 pt a side or turned other than by quarters, or with fonts " +
      "not embedded. Only while the contract is a draft (409 `contract_text_frozen`).",
    tag: "Files",
    params: ZContractPathParamsSchema,
    body: ZUploadContractFileRequestSchema,
    multipart: true,
    response: ZContractFileSchema,
    errors: WRITE_ERRORS,
  }),
  getContractFile: endpoint({
    id: "getContractFile",
    method: "GET",
    path: "/v1/contracts/{contract_id}/files/{file_id}",
    summary: "Get or download a file of a contract",
    description:
      "Without `download=true`: the file's description. With it: the bytes, streamed, with the file's `Content-Type` " +
      "and `Content-Disposition: attachment`. The `contract` file is rendered when downloaded.",
    tag: "Files",
    params: ZContractFilePathParamsSchema,
    query: ZContractFileQuerySchema,
    response: ZContractFileSchema,
    errors: READ_ERRORS,
  }),
  deleteContractFile: endpoint({
    id: "deleteContractFile",
    method: "DELETE",
    path: "/v1/contracts/{contract_id}/files/{file_id}",
    summary: "Remove an attachment, or the uploaded PDF, from a draft",
    description: "Removing the uploaded PDF (the `contract` file of a contract whose document is one) removes its boxes too; the template's text is the document again.",
    tag: "Files",
    params: ZContractFilePathParamsSchema,
    successStatus: 204,
    errors: WRITE_ERRORS,
  }),
  listPlacements: endpoint({
    id: "listPlacements",
    method: "GET",
    path: "/v1/contracts/{contract_id}/placements",
    summary: "List the boxes on the contract's uploaded PDF",
    description: "By page, then id. Empty for a text contract.",
    tag: "Placements",
    params: ZContractPathParamsSchema,
    response: ZPlacementListSchema,
    errors: READ_ERRORS,
  }),
  createPlacement: endpoint({
    id: "createPlacement",
    method: "POST",
    path: "/v1/contracts/{contract_id}/placements",
    summary: "Place a box on a page of the uploaded PDF",
    description:
      "A signature, name or date box for a signatory (`participant_id`), or a data field's box (`data_field_id`), on " +
      "`page` at `x`, `y` with `width`, `height`, all shares of the page from its top left corner. 400 names each " +
      "problem (a page the PDF lacks, a box off its page, someone who does not sign); 409 unless the contract is a draft " +
      "whose document is an uploaded PDF (`contract_has_no_pdf`), or once it holds 500 boxes. Editors and administrators.",
    tag: "Placements",
    params: ZContractPathParamsSchema,
    body: ZCreatePlacementRequestSchema,
    response: ZPlacementSchema,
    responseDescription: "The box.",
    errors: WRITE_ERRORS,
  }),
  updatePlacement: endpoint({
    id: "updatePlacement",
    method: "PUT",
    path: "/v1/contracts/{contract_id}/placements/{placement_id}",
    summary: "Move, resize or reassign a box",
    description: "The attributes left out keep their values; the box that results is checked as a new one is.",
    tag: "Placements",
    params: ZPlacementPathParamsSchema,
    body: ZUpdatePlacementRequestSchema,
    response: ZPlacementSchema,
    responseDescription: "The box.",
    errors: WRITE_ERRORS,
  }),
  deletePlacement: endpoint({
    id: "deletePlacement",
    method: "DELETE",
    path: "/v1/contracts/{contract_id}/placements/{placement_id}",
    summary: "Remove a box",
    tag: "Placements",
    params: ZPlacementPathParamsSchema,
    successStatus: 204,
    responseDescription: "Removed; no body.",
    errors: WRITE_ERRORS,
  }),
  listContractEvents: endpoint({
    id: "listContractEvents",
    method: "GET",
    path: "/v1/contracts/{contract_id}/events",
    summary: "List the audit trail of a contract",
    description:
      "Every recorded change of the contract and of its parties, participants and data fields, newest first: who " +
      "(user, API token), when, how they came in, and each changed attribute from its old to its new value. " +
      "Visible to whoever may see the contract; a deleted contract's events are kept but answer 404 here.",
    tag: "Contracts",
    params: ZContractPathParamsSchema,
    query: page,
    response: ZAuditEventListSchema,
    errors: READ_ERRORS,
  }),
  verifyContractEvents: endpoint({
    id: "verifyContractEvents",
    method: "GET",
    path: "/v1/contracts/{contract_id}/events/verify",
    summary: "Verify the audit trail of a contract",
    description:
      "Recomputes the contract's audit chain (docs/security.md \"The audit chain\"): each event's hash chains in the one before it, " +
      "so an edited, deleted or reordered past event shows as `broken_at`. Visible to whoever may see the contract.",
    tag: "Contracts",
    params: ZContractPathParamsSchema,
    response: ZAuditChainVerdictSchema,
    errors: READ_ERRORS,
  }),
  verifySealedPdf: endpoint({
    id: "verifySealedPdf",
    method: "POST",
    path: "/v1/verify",
    summary: "Verify a sealed PDF",
    description:
      "The request body is the PDF itself (`Content-Type: application/pdf`, at most 32 MiB: a sealed copy of the largest uploaded PDF). Answers whether this deployment " +
      "sealed it and not one byte changed since (`intact`, with the contract), whether it carries this deployment's seal but was changed " +
      "(`changed`), or neither (`unknown`). Needs no credentials: anyone holding a copy may check it (the page /verify does).",
    tag: "Service",
    auth: false,
    response: ZSealVerificationSchema,
    errors: [400, 413, 415, 429, 503],
  }),
  listParties: endpoint({
    id: "listParties",
    method: "GET",
    path: "/v1/contracts/{contract_id}/parties",
    summary: "List the parties of a contract",
    tag: "Parties",
    params: ZContractPathParamsSchema,
    query: childPage,
    response: ZPartyListSchema,
    errors: READ_ERRORS,
  }),
  getParty: endpoint({
    id: "getParty",
    method: "GET",
    path: "/v1/contracts/{contract_id}/parties/{party_id}",
    summary: "Get a party",
    tag: "Parties",
    params: ZPartyPathParamsSchema,
    response: ZPartySchema,
    errors: READ_ERRORS,
  }),
  createParty: endpoint({
    id: "createParty",
    method: "POST",
    path: "/v1/contracts/{contract_id}/parties",
    summary: "Add a counterparty",
    description:
      "Adds a company (with its participants) or an individual to a draft contract (else 409), in the shape and " +
      "under the rules of `parties` on contract creation: the template's options, the required attributes, and " +
      "the limits counted with the parties the contract has. Answers 200, as contract creation does.",
    tag: "Parties",
    params: ZContractPathParamsSchema,
    body: ZCreatePartyRequestSchema,
    response: ZPartySchema,
    responseDescription: "The added party, as GET answers it.",
    errors: WRITE_ERRORS,
  }),
  deleteParty: endpoint({
    id: "deleteParty",
    method: "DELETE",
    path: "/v1/contracts/{contract_id}/parties/{party_id}",
    summary: "Remove a counterparty",
    description: "Removes a counterparty and its participants from a draft contract (else 409). The owner-side party cannot be removed (409).",
    tag: "Parties",
    params: ZPartyPathParamsSchema,
    successStatus: 204,
    responseDescription: "Removed; no body.",
    errors: [400, 401, 403, 404, 409, 429, 503],
  }),
  createParticipant: endpoint({
    id: "createParticipant",
    method: "POST",
    path: "/v1/contracts/{contract_id}/parties/{party_id}/participants",
    summary: "Add a participant",
    description:
      "Adds a participant to a company counterparty of a draft contract (else 409; an individual party and the " +
      "owner-side party take none, 409), in the shape and under the rules of a participant on contract creation.",
    tag: "Participants",
    params: ZPartyPathParamsSchema,
    body: ZCreateParticipantRequestSchema,
    response: ZParticipantSchema,
    responseDescription: "The added participant, with `_links`, as GET answers it.",
    etag: true,
    errors: WRITE_ERRORS,
  }),
  getParticipant: endpoint({
    id: "getParticipant",
    method: "GET",
    path: "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}",
    summary: "Get a participant",
    tag: "Participants",
    params: ZParticipantPathParamsSchema,
    response: ZParticipantSchema,
    responseDescription: "The participant, with `_links`.",
    etag: true,
    errors: READ_ERRORS,
  }),
  updateParticipant: endpoint({
    id: "updateParticipant",
    method: "PUT",
    path: "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}",
    summary: "Update a participant",
    description:
      "Changes only the attributes sent; `{}` changes nothing and answers the participant as it is. Options must be " +
      "offered by the contract's template; e-mail and phone number are required as the chosen options say; a " +
      "signatory needs `_permissions.contract:update`. Only while the contract is draft or pending (else 409).",
    tag: "Participants",
    params: ZParticipantPathParamsSchema,
    body: ZUpdateParticipantRequestSchema,
    response: ZParticipantSchema,
    responseDescription: "The updated participant, with `_links`.",
    etag: true,
    ifMatch: true,
    errors: [...WRITE_ERRORS, 412],
  }),
  getSigningLink: endpoint({
    id: "getSigningLink",
    method: "GET",
    path: "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}/signing_link",
    summary: "A participant's signing link",
    description:
      "The participant's personal signing page, to share another way than the invitation. Only for those who may change " +
      "the contract (403), and only while it is pending (409 `contract_not_pending`).",
    tag: "Participants",
    params: ZParticipantPathParamsSchema,
    response: ZSigningLinkSchema,
    errors: [400, 401, 403, 404, 409, 429, 503],
  }),
  sendInvitation: endpoint({
    id: "sendInvitation",
    method: "POST",
    path: "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}/send_invitation",
    summary: "Send a participant's invitation again",
    description:
      "Gives the participant a new signing link (the old one stops working; a lock by wrong codes is lifted) and invites them " +
      "again by their delivery channel: an e-mail for `email` and `email_and_sms`; none for `sms`, `same_device` and `none`, " +
      "whose new link staff hand over themselves (`GET …/signing_link`). The reminder schedule starts again from this " +
      "invitation. Only while the contract is pending (409), for a participant who has not decided yet (400) and whose " +
      "signing stage has opened (409 `not_your_turn`).",
    tag: "Participants",
    params: ZParticipantPathParamsSchema,
    response: ZParticipantSchema,
    responseDescription: "The participant, with `_links`.",
    errors: WRITE_ERRORS,
  }),
  deleteParticipant: endpoint({
    id: "deleteParticipant",
    method: "DELETE",
    path: "/v1/contracts/{contract_id}/parties/{party_id}/participants/{participant_id}",
    summary: "Remove a participant",
    description:
      "Removes a participant from a draft contract (else 409). The organizer cannot be removed, nor the last " +
      "participant of a counterparty (remove the party instead): both 409.",
    tag: "Participants",
    params: ZParticipantPathParamsSchema,
    successStatus: 204,
    responseDescription: "Removed; no body.",
    errors: [400, 401, 403, 404, 409, 429, 503],
  }),
  listDataFields: endpoint({
    id: "listDataFields",
    method: "GET",
    path: "/v1/contracts/{contract_id}/data_fields",
    summary: "List the data fields of a contract",
    tag: "Data fields",
    params: ZContractPathParamsSchema,
    query: childPage,
    response: ZDataFieldListSchema,
    errors: READ_ERRORS,
  }),
  getDataField: endpoint({
    id: "getDataField",
    method: "GET",
    path: "/v1/contracts/{contract_id}/data_fields/{data_field_id}",
    summary: "Get a data field of a contract",
    tag: "Data fields",
    description: "`data_field_id` is the field's id, or `c::` followed by its custom id.",
    params: ZDataFieldPathParamsSchema,
    response: ZDataFieldSchema,
    errors: READ_ERRORS,
  }),
  updateDataField: endpoint({
    id: "updateDataField",
    method: "PUT",
    path: "/v1/contracts/{contract_id}/data_fields/{data_field_id}",
    summary: "Set a data field's value",
    description:
      "Sets the value (at most 10,000 characters) while the contract is draft or pending (else 409). " +
      "`data_field_id` is the field's id, or `c::` followed by its custom id. The same value changes nothing.",
    tag: "Data fields",
    params: ZDataFieldPathParamsSchema,
    body: ZUpdateDataFieldRequestSchema,
    response: ZDataFieldSchema,
    responseDescription: "The data field, as GET answers it.",
    errors: WRITE_ERRORS,
  }),
  listEmailMessages: endpoint({
    id: "listEmailMessages",
    method: "GET",
    path: "/v1/email_messages",
    summary: "List outgoing e-mail (the Outbox)",
    description:
      "Administrators only (else 403). Newest first. Messages are kept here, not sent, when the deployment has no " +
      "SMTP server; only those show their signing link and code.",
    tag: "Outbox",
    query: ZEmailMessageListQuerySchema,
    response: ZEmailMessageListSchema,
    errors: [...LIST_ERRORS, 403],
  }),
  createWebhook: endpoint({
    id: "createWebhook",
    method: "POST",
    path: "/v1/webhooks",
    summary: "Subscribe to events",
    description:
      "Every change the audit trail records is POSTed to `callback_url`, signed as the Standard Webhooks specification " +
      "says (the `webhooks` section lists each event type and its body). The answer carries the signing `secret`, the " +
      "only time it is shown. The URL must be http(s), without credentials, on a public address (400 " +
      "`webhook_callback_url_refused`). Administrators only.",
    tag: "Webhooks",
    body: ZCreateWebhookRequestSchema,
    response: ZCreatedWebhookSchema,
    responseDescription: "The subscription, with its secret.",
    errors: [400, 401, 403, 413, 415, 429, 503],
  }),
  listWebhooks: endpoint({
    id: "listWebhooks",
    method: "GET",
    path: "/v1/webhooks",
    summary: "List webhook subscriptions",
    description: "Administrators only. Secrets are never answered again.",
    tag: "Webhooks",
    query: page,
    response: ZWebhookListSchema,
    errors: [400, 401, 403, 429, 503],
  }),
  getWebhook: endpoint({
    id: "getWebhook",
    method: "GET",
    path: "/v1/webhooks/{webhook_id}",
    summary: "Get a webhook subscription",
    description: "Administrators only.",
    tag: "Webhooks",
    params: ZWebhookPathParamsSchema,
    response: ZWebhookSchema,
    errors: [400, 401, 403, 404, 429, 503],
  }),
  updateWebhook: endpoint({
    id: "updateWebhook",
    method: "PUT",
    path: "/v1/webhooks/{webhook_id}",
    summary: "Pause or resume a webhook subscription",
    description:
      "`{ \"active\": false }` pauses deliveries; events keep being recorded and are delivered after `{ \"active\": true }`, " +
      "which also clears a pause the service made after days of failures. Administrators only.",
    tag: "Webhooks",
    params: ZWebhookPathParamsSchema,
    body: ZUpdateWebhookRequestSchema,
    response: ZWebhookSchema,
    errors: [400, 401, 403, 404, 413, 415, 429, 503],
  }),
  deleteWebhook: endpoint({
    id: "deleteWebhook",
    method: "DELETE",
    path: "/v1/webhooks/{webhook_id}",
    summary: "Delete a webhook subscription",
    description: "Stops every delivery, queued ones included, and removes their history. Administrators only.",
    tag: "Webhooks",
    params: ZWebhookPathParamsSchema,
    successStatus: 204,
    responseDescription: "Deleted; no body.",
    errors: [400, 401, 403, 404, 429, 503],
  }),
  listWebhookDeliveries: endpoint({
    id: "listWebhookDeliveries",
    method: "GET",
    path: "/v1/webhooks/{webhook_id}/deliveries",
    summary: "A subscription's deliveries, newest first",
    description: "Each event's delivery: status, attempts, the receiver's last status code and how long it took. Administrators only.",
    tag: "Webhooks",
    params: ZWebhookPathParamsSchema,
    query: page,
    response: ZWebhookDeliveryListSchema,
    errors: [400, 401, 403, 404, 429, 503],
  }),
  retryWebhookDelivery: endpoint({
    id: "retryWebhookDelivery",
    method: "POST",
    path: "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry",
    summary: "Send a delivery again",
    description:
      "Queues the event again for this subscription, now, with the same `webhook-id` and body; its retries start over. " +
      "409 `webhook_delivery_in_progress` while an attempt is under way. A paused subscription sends it once resumed. " +
      "Administrators only.",
    tag: "Webhooks",
    params: ZWebhookDeliveryPathParamsSchema,
    response: ZWebhookDeliverySchema,
    responseDescription: "The delivery, queued.",
    errors: [400, 401, 403, 404, 409, 429, 503],
  }),
} as const satisfies Record<string, TEndpoint>;

export type TEndpoints = typeof ENDPOINTS;
export type TEndpointId = keyof TEndpoints;
