/**
 * Every `error_code` the /v1 API can answer with: the stable, documented table (docs/api.md "Errors").
 *
 * A code is 7 digits and begins with its HTTP status. Codes ending in `0000` are generic; every other
 * code names one reason a client can act on. Codes are a public contract: never renumber or reuse
 * one, only add. Keys are what the code throws (`new DomainError("option_not_offered", …)`).
 */
export const ERROR_CODES = {
  // --- 400 -----------------------------------------------------------------------------------------
  bad_request: {
    code: 4000000,
    status: 400,
    title: "Bad Request",
    description: "The request is not valid.",
  },
  validation_failed: {
    code: 4000001,
    status: 400,
    title: "Bad Request",
    description:
      "One or more attributes of the body have a wrong type, format or value, or are missing; " +
      "`parameter_problems` names each one by its path (e.g. `parties.0.participants.0.email`).",
  },
  malformed_json: {
    code: 4000002,
    status: 400,
    title: "Bad Request",
    description: "The body is not well-formed JSON (or not UTF-8).",
  },
  body_not_object: {
    code: 4000003,
    status: 400,
    title: "Bad Request",
    description: "The body is valid JSON but not a JSON object.",
  },
  json_too_deep: {
    code: 4000004,
    status: 400,
    title: "Bad Request",
    description: "The body nests objects and arrays deeper than the service accepts.",
  },
  invalid_path_id: {
    code: 4000005,
    status: 400,
    title: "Bad Request",
    description:
      "An identifier in the path is not a positive integer in the 32-bit range (nor, where the endpoint accepts " +
      "one, another documented form such as a data field's `c::{custom_id}`).",
  },
  invalid_query_parameter: {
    code: 4000006,
    status: 400,
    title: "Bad Request",
    description:
      "A query parameter (pagination, filter or sort) has an invalid value or is repeated; " +
      "`parameter_problems` names each one.",
  },
  unknown_attribute: {
    code: 4000007,
    status: 400,
    title: "Bad Request",
    description: "The body contains an attribute that is unknown here or cannot be written.",
  },
  option_not_offered: {
    code: 4000008,
    status: 400,
    title: "Bad Request",
    description:
      "A delivery channel, sign method or two-step authentication method is not among the options " +
      "the contract's template offers.",
  },
  participant_attribute_missing: {
    code: 4000009,
    status: 400,
    title: "Bad Request",
    description:
      "The chosen delivery channel or two-step authentication method requires a participant " +
      "attribute (e-mail or phone number) that is missing (spec 2.3.1).",
  },
  signatory_requires_contract_update: {
    code: 4000010,
    status: 400,
    title: "Bad Request",
    description: "A signatory participant must also have `_permissions.contract:update` true.",
  },
  owner_participant_email_immutable: {
    code: 4000011,
    status: 400,
    title: "Bad Request",
    description: "The e-mail of an owner-side participant is the user's own and cannot be changed here.",
  },
  template_not_usable: {
    code: 4000012,
    status: 400,
    title: "Bad Request",
    description: "The template does not exist, is not visible to the caller, or cannot be used in the workspace.",
  },
  malformed_path: {
    code: 4000013,
    status: 400,
    title: "Bad Request",
    description:
      "The request path is not a valid percent-encoded path (e.g. `%ff`, a lone `%`, or an escape that " +
      "does not decode to UTF-8).",
  },
  invalid_host: {
    code: 4000014,
    status: 400,
    title: "Bad Request",
    description: "The `Host` header is not a valid host name or address with an optional port (1–65535).",
  },

  conflicting_credentials: {
    code: 4000021,
    status: 400,
    title: "Bad Request",
    description: "A credential is sent under both its names (x-service-… and x-oneflow-…) with different values.",
  },
  webhook_callback_url_refused: {
    code: 4000030,
    status: 400,
    title: "Bad Request",
    description:
      "The webhook's callback URL is refused: not http(s), carries credentials, its host does not resolve, or it " +
      "resolves to an address that is not public (loopback, private, link-local, …).",
  },

  two_step_code_invalid: {
    code: 4000020,
    status: 400,
    title: "Bad Request",
    description: "The e-mailed code is missing, wrong, used up or expired; ask for a new one.",
  },
  delegate_already_participant: {
    code: 4000040,
    status: 400,
    title: "Bad Request",
    description: "The delegate's e-mail address is already a participant's of this contract (the one delegating included): delegate to someone new.",
  },
  file_unreadable: {
    code: 4000050,
    status: 400,
    title: "Bad Request",
    description:
      "The uploaded file is not a readable PDF, PNG or JPEG: damaged, encrypted, or beyond what the service reads (more than 500 pages or 100,000 PDF objects), or the multipart body lacks `file` or `upload_as=attachment`.",
  },

  // --- 401 -----------------------------------------------------------------------------------------
  unauthorized: {
    code: 4010000,
    status: 401,
    title: "Unauthorized",
    description: "The request is not authenticated.",
  },
  missing_api_token: {
    code: 4010001,
    status: 401,
    title: "Unauthorized",
    description: "The `x-service-api-token` header is missing or empty.",
  },
  invalid_api_token: {
    code: 4010002,
    status: 401,
    title: "Unauthorized",
    description: "The API token is unknown or has been revoked.",
  },
  unknown_user_email: {
    code: 4010003,
    status: 401,
    title: "Unauthorized",
    description:
      "No active user has the e-mail of the `x-service-user-email` header. Omit the header to act as " +
      "the anonymous admin.",
  },

  // --- 403 -----------------------------------------------------------------------------------------
  forbidden: {
    code: 4030000,
    status: 403,
    title: "Forbidden",
    description: "The caller may not do this.",
  },
  role_cannot_write: {
    code: 4030001,
    status: 403,
    title: "Forbidden",
    description: "The caller's role in the workspace (viewer) may read but not change its contracts.",
  },
  admin_only: {
    code: 4030002,
    status: 403,
    title: "Forbidden",
    description: "Only administrators may do this.",
  },
  origin_mismatch: {
    code: 4030003,
    status: 403,
    title: "Forbidden",
    description:
      "A change made with a web-app session must come from a page of this service (its `Origin` " +
      "header must match the service's own).",
  },

  not_a_signatory: {
    code: 4030010,
    status: 403,
    title: "Forbidden",
    description: "Only a signatory can sign or decline; this participant receives the contract to read.",
  },

  two_step_locked: {
    code: 4030011,
    status: 403,
    title: "Forbidden",
    description:
      "Too many wrong e-mailed codes: the participant can no longer sign, decline or hand on by code with this link. The contract's " +
      "owner unlocks by sending the invitation again, which issues a new link (docs/security.md).",
  },

  // --- 404 / 405 -----------------------------------------------------------------------------------
  not_found: {
    code: 4040000,
    status: 404,
    title: "Not Found",
    description: "Nothing was found.",
  },
  resource_not_found: {
    code: 4040001,
    status: 404,
    title: "Not Found",
    description: "The resource does not exist or is not visible to the caller.",
  },
  route_not_found: {
    code: 4040002,
    status: 404,
    title: "Not Found",
    description: "No endpoint has this path.",
  },
  method_not_allowed: {
    code: 4050000,
    status: 405,
    title: "Method Not Allowed",
    description: "The endpoint does not support this HTTP method; the `Allow` header lists those it does.",
  },

  // --- 409 / 412 -----------------------------------------------------------------------------------
  conflict: {
    code: 4090000,
    status: 409,
    title: "Conflict",
    description: "The request conflicts with the current state of the resource.",
  },
  contract_not_editable: {
    code: 4090001,
    status: 409,
    title: "Conflict",
    description:
      "The contract's state (signed, declined or overdue) no longer allows changes to its participants or data fields.",
  },
  contract_not_deletable: {
    code: 4090004,
    status: 409,
    title: "Conflict",
    description: "Only a draft contract can be deleted, except by an administrator.",
  },
  contract_not_draft: {
    code: 4090005,
    status: 409,
    title: "Conflict",
    description: "Parties and participants can be added to or removed from a contract only while it is a draft.",
  },
  my_party_not_removable: {
    code: 4090006,
    status: 409,
    title: "Conflict",
    description: "The owner-side party (`my_party: true`) belongs to every contract and cannot be removed.",
  },
  organizer_not_removable: {
    code: 4090007,
    status: 409,
    title: "Conflict",
    description: "The contract's organizer (the owner-side participant who is a user of the service) cannot be removed.",
  },
  party_needs_participant: {
    code: 4090008,
    status: 409,
    title: "Conflict",
    description:
      "A counterparty keeps at least one participant (an individual party exactly its one): remove the party " +
      "instead, or add the new participant first.",
  },
  party_takes_no_participants: {
    code: 4090009,
    status: 409,
    title: "Conflict",
    description:
      "Participants are added only to company counterparties: an individual party is its one participant, and " +
      "the owner-side party's participants are users of the service.",
  },
  contract_not_publishable: {
    code: 4090010,
    status: 409,
    title: "Conflict",
    description:
      "The contract cannot be published: it is not a draft, has no counterparty, a counterparty has no signatory, or a participant lacks what its delivery channel, sign method or two-step method needs. `parameter_problems` names each.",
  },
  lifecycle_action_refused: {
    code: 4090042,
    status: 409,
    title: "Conflict",
    description:
      "The contract's lifecycle does not allow this now: notice after its deadline (the detail names the earliest date the contract can end), " +
      "notice or termination for a contract not signed, already ending or ended, or a change to a term that was published.",
  },
  contract_reminder_sent: {
    code: 4090043,
    status: 409,
    title: "Conflict",
    description: "The internal reminder was already sent; it stays as a record of what was sent to whom.",
  },
  contract_has_no_pdf: {
    code: 4090044,
    status: 409,
    title: "Conflict",
    description: "Boxes are placed on the pages of an uploaded PDF; the contract's document is its template's text. Upload a PDF with `upload_as=expanded_pdf` first.",
  },
  reminder_limit_reached: {
    code: 4090046,
    status: 409,
    title: "Conflict",
    description: "The contract already has 50 internal reminders waiting to be sent (remove one first), or has had 200 in all.",
  },
  placement_limit_reached: {
    code: 4090045,
    status: 409,
    title: "Conflict",
    description: "The contract already has 500 boxes on its PDF; remove one first.",
  },
  contract_not_pending: {
    code: 4090011,
    status: 409,
    title: "Conflict",
    description: "This works only while the contract is pending (published and not yet signed, declined or overdue).",
  },
  already_decided: {
    code: 4090012,
    status: 409,
    title: "Conflict",
    description: "The participant has already signed or declined.",
  },
  sign_method_unavailable: {
    code: 4090013,
    status: 409,
    title: "Conflict",
    description:
      "The participant's sign method or two-step method (eID, SMS and the like) needs a provider this deployment does not have; the contract's owner must change it.",
  },
  not_your_turn: {
    code: 4090014,
    status: 409,
    title: "Conflict",
    description:
      "The contract is signed in order (`signing_order: ordered`) and the participant's stage has not opened: the signatories with a lower `sign_order` sign first.",
  },
  delegation_not_allowed: {
    code: 4090015,
    status: 409,
    title: "Conflict",
    description:
      "The signature cannot be handed on: the contract does not allow delegation, the participant is not a signatory, has signed or declined, or already delegated.",
  },
  data_fields_frozen: {
    code: 4090020,
    status: 409,
    title: "Conflict",
    description:
      "Once a contract is published its data fields are what the signatories were invited to sign: they change only while it is a draft.",
  },
  signatories_frozen: {
    code: 4090021,
    status: 409,
    title: "Conflict",
    description:
      "Once a contract is published, who must sign is what the parties were invited to: a participant's `signatory` changes only while the contract is a draft.",
  },
  participant_decided: {
    code: 4090022,
    status: 409,
    title: "Conflict",
    description:
      "The participant has signed or declined: their name, e-mail, sign method and two-step method stay as they were when they decided.",
  },
  contract_text_frozen: {
    code: 4090040,
    status: 409,
    title: "Conflict",
    description: "Once a contract is published its text and attachments are what the participants were invited to sign: they change only while it is a draft.",
  },
  attachment_limit_reached: {
    code: 4090041,
    status: 409,
    title: "Conflict",
    description: "The contract already has 20 attachments; remove one first.",
  },
  webhook_delivery_in_progress: {
    code: 4090030,
    status: 409,
    title: "Conflict",
    description: "The webhook delivery is being sent right now; ask again once this attempt has finished.",
  },
  idempotency_key_reused: {
    code: 4090002,
    status: 409,
    title: "Conflict",
    description: "The `Idempotency-Key` was already used with a different request body.",
  },
  already_exists: {
    code: 4090003,
    status: 409,
    title: "Conflict",
    description: "A resource with these unique values already exists.",
  },
  precondition_failed: {
    code: 4120000,
    status: 412,
    title: "Precondition Failed",
    description: "A precondition of the request does not hold.",
  },
  stale_if_match: {
    code: 4120001,
    status: 412,
    title: "Precondition Failed",
    description: "The resource changed since the version named in `If-Match`; fetch it again.",
  },

  // --- 413 / 415 / 429 / 431 -----------------------------------------------------------------------
  payload_too_large: {
    code: 4130000,
    status: 413,
    title: "Content Too Large",
    description: "The request is too large.",
  },
  body_too_large: {
    code: 4130001,
    status: 413,
    title: "Content Too Large",
    description: "The body is larger than 1 MiB.",
  },
  file_too_large: {
    code: 4130002,
    status: 413,
    title: "Content Too Large",
    description: "An attachment may be at most 10 MB (10,000,000 bytes).",
  },
  unsupported_media_type: {
    code: 4150000,
    status: 415,
    title: "Unsupported Media Type",
    description: "The body's media type is not supported.",
  },
  content_type_not_json: {
    code: 4150001,
    status: 415,
    title: "Unsupported Media Type",
    description: "A body must be sent with `Content-Type: application/json`.",
  },
  file_type_not_accepted: {
    code: 4150002,
    status: 415,
    title: "Unsupported Media Type",
    description: "Attachments are PDF, PNG or JPEG, told by their content (not their name or declared type); the body must be `multipart/form-data`.",
  },
  headers_too_large: {
    code: 4310000,
    status: 431,
    title: "Request Header Fields Too Large",
    description: "The request line and headers together are larger than 16 KiB (a long query string, or large cookies).",
  },
  too_many_requests: {
    code: 4290000,
    status: 429,
    title: "Too Many Requests",
    description: "Too many requests.",
  },
  rate_limited: {
    code: 4290001,
    status: 429,
    title: "Too Many Requests",
    description: "The API token made too many requests; wait the seconds `Retry-After` says.",
  },

  // --- 5xx -----------------------------------------------------------------------------------------
  internal_error: {
    code: 5000000,
    status: 500,
    title: "Internal Server Error",
    description: "An unexpected error; the server's log has the details under the request's `request_id`.",
  },
  service_unavailable: {
    code: 5030000,
    status: 503,
    title: "Service Unavailable",
    description: "The service cannot answer right now; retry after the seconds `Retry-After` says.",
  },
  database_unavailable: {
    code: 5030001,
    status: 503,
    title: "Service Unavailable",
    description:
      "The database cannot be reached (or is still starting); retry after the seconds `Retry-After` says.",
  },
  database_busy: {
    code: 5030002,
    status: 503,
    title: "Service Unavailable",
    description:
      "The database is reachable but too busy to answer in time (every connection in use, or a row " +
      "another request holds stayed locked); nothing was changed. Retry after the seconds `Retry-After` says.",
  },
} as const satisfies Record<string, { code: number; status: number; title: string; description: string }>;

export type TErrorKey = keyof typeof ERROR_CODES;

/** The table as a list, for the API reference and the `/v1/error_codes` documentation. */
export function listErrorCodes() {
  return Object.entries(ERROR_CODES).map(([key, value]) => ({ key: key as TErrorKey, ...value }));
}
