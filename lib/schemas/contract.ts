import { z } from "zod";

import { CONTRACT_STATES, SIGNING_ORDERS } from "@/lib/domain/enums";
import { LIFECYCLE_STATES, LIFECYCLE_SUB_STATES } from "@/lib/domain/lifecycle";
import { searchSpaces, searchTerms } from "@/lib/domain/search-syntax";

import { ZBooleanSchema, ZIdParamSchema, ZIdSchema, ZLinkSchema, ZNameSchema, ZTimestampSchema, oneOf, requestObject, typeError } from "./common";
import { answerShapeOf, fieldTable } from "./field-table";
import { ZDateSchema, ZDurationSchema, ZLifecycleSettingsRequestSchema, ZLifecycleStateSchema, ZLifecycleSubStateSchema, ZPeriodSchema } from "./lifecycle";
import { ZDataFieldValueRequestSchema } from "./data-field";
import { CONTRACT_LIMITS, SEARCH_MATCH_LIMIT, SEARCH_QUERY_MAX_LENGTH } from "./limits";
import { ZPaginatedSchema, ZPaginationQuerySchema } from "./pagination";
import { ZCreatePartyRequestSchema, ZPartySchema, ZPartySummarySchema } from "./party";

export const ZContractStateSchema = oneOf(CONTRACT_STATES).meta({ id: "ContractState" });
export const ZSigningOrderSchema = oneOf(SIGNING_ORDERS).meta({
  id: "SigningOrder",
  description:
    "`parallel`: every signatory is invited at publishing. `ordered`: signatories sign in stages by their `sign_order` (1 first; " +
    "a shared number signs in parallel); each stage is invited when the one before it has signed, and a signatory out of turn is refused.",
});

// --- Requests ---

export const ZCreateContractRequestSchema = requestObject({
  workspace_id: ZIdSchema.meta({ description: "Workspace in which the contract is created." }),
  template_id: ZIdSchema.meta({ description: "Template the contract is created from; it must be usable in the workspace." }),
  name: ZNameSchema.optional().meta({ description: "1–100 characters. Defaults to the template's name." }),
  signing_order: ZSigningOrderSchema.optional().meta({
    description: "Default `parallel`. With `ordered`, every counterparty signatory sent needs a `sign_order`, numbered 1, 2, … without gaps.",
  }),
  delegation_allowed: ZBooleanSchema.optional().meta({ description: "Whether a signatory may hand their signature on from the signing page. Default true." }),
  lifecycle_settings: ZLifecycleSettingsRequestSchema.optional().meta({
    description: "The duration settings (docs: lifecycle); those left out take the template's defaults. A combination the duration does not allow is a 400 naming the setting.",
  }),
  parties: z
    .array(ZCreatePartyRequestSchema, { error: typeError("a list") })
    .max(CONTRACT_LIMITS.counterparties, `a contract can have at most ${CONTRACT_LIMITS.counterparties} counterparties`)
    .refine((parties) => participantCount(parties) <= CONTRACT_LIMITS.participantsPerContract, {
      message: `the counterparties can have at most ${CONTRACT_LIMITS.participantsPerContract} participants in all`,
    })
    .optional()
    .meta({
      description:
        `Counterparties (at most ${CONTRACT_LIMITS.counterparties}, with at most ${CONTRACT_LIMITS.participantsPerParty} participants each ` +
        `and ${CONTRACT_LIMITS.participantsPerContract} in all). The owner-side party is added by the service.`,
    }),
  data_fields: z
    .array(ZDataFieldValueRequestSchema, { error: typeError("a list") })
    .max(CONTRACT_LIMITS.dataFieldValues, `at most ${CONTRACT_LIMITS.dataFieldValues} data field values`)
    .superRefine((entries, ctx) => {
      const seen = new Set<string>();
      entries.forEach((entry, index) => {
        if (seen.has(entry.custom_id)) ctx.addIssue({ code: "custom", path: [index, "custom_id"], message: "is given more than once" });
        seen.add(entry.custom_id);
      });
    })
    .optional()
    .meta({
      description:
        "Values for the template's data fields, each named by its custom id (once each); they replace the template's " +
        "default values in the contract.",
    }),
}).meta({ id: "CreateContractRequest" });

function participantCount(parties: readonly { type: string; participants?: readonly unknown[] }[]): number {
  return parties.reduce((n, party) => n + (party.type === "company" ? (party.participants?.length ?? 0) : 1), 0);
}

export const ZContractPathParamsSchema = z.object({ contract_id: ZIdParamSchema.meta({ description: "The contract." }) });

export const CONTRACT_SORTS = [
  "id",
  "-id",
  "name",
  "-name",
  "created_time",
  "-created_time",
  "updated_time",
  "-updated_time",
  "end_date",
  "-end_date",
  "notice_deadline",
  "-notice_deadline",
  // Only with `q`: the best matches first (docs/api.md "Finding contracts"); the default then.
  "relevance",
] as const;

/** The lifecycle filter: a state (its sub-states included) or a sub-state. */
export const CONTRACT_LIFECYCLE_FILTERS = [...LIFECYCLE_STATES, ...LIFECYCLE_SUB_STATES] as const;

/** A point in time in a query: ISO 8601 with its offset, e.g. `2026-11-26T00:00:00Z`. */
const ZTimeParamSchema = z.iso.datetime({ offset: true, error: "must be a date and time such as 2026-11-26T09:00:00Z" });
/** A filter that is on (`true`) or absent. */
const ZTrueParamSchema = z.literal("true", { error: "must be true (leave it out to turn the filter off)" });

/** The most `-` operators (before a word: leave it out) a search may hold (`q`). */
const MAX_SEARCH_NEGATIONS = 30;

const ZContractListQueryBaseSchema = ZPaginationQuerySchema({ allowAll: false }).extend({
  workspace_id: ZIdParamSchema.optional().meta({ description: "Only contracts of this workspace." }),
  state: ZContractStateSchema.optional().meta({ description: "Only contracts in this state." }),
  q: z
    .string()
    // Every Unicode space is a space (lib/domain/search-syntax.ts: the database's locale would decide).
    .overwrite(searchSpaces)
    .trim()
    .min(1, "must not be empty")
    .max(SEARCH_QUERY_MAX_LENGTH, `must be at most ${SEARCH_QUERY_MAX_LENGTH} characters`)
    // Each `-` before a word leaves the word out; PostgreSQL's web search syntax keeps at most 32
    // operators pending at once (more: "tsquery stack too small"), and two may be an `or` and a
    // word's `and`. A `-` inside a word (`PO-4411`) is no operator.
    .refine((q) => searchTerms(q).negations <= MAX_SEARCH_NEGATIONS, `must hold at most ${MAX_SEARCH_NEGATIONS} “-” before words`)
    .optional()
    .meta({
      description:
        "Search: only contracts whose name, parties, participants' names or e-mail addresses, data field values or text hold every word " +
        "(web search syntax: \"a phrase\", or, -word; at most 30 `-` before words), or (3 characters or more) this text anywhere, in any letter case. Each item then " +
        "carries `_search` when `matches=true`.",
    }),
  matches: z
    .literal("true", { error: "must be true (leave it out for items without _search)" })
    .optional()
    .meta({
      description:
        "With `q`: `true` gives each item `_search`, where it matched with the matched words marked (for a page of 100 about a third of a " +
        "broad search's time; the contracts page asks for it). Refused without `q`.",
    }),
  updated_before: ZTimeParamSchema.optional().meta({ description: "Only contracts last changed before this time." }),
  expires_before: ZTimeParamSchema.optional().meta({ description: "Only contracts whose signing period ends before this time." }),
  state_updated_after: ZTimeParamSchema.optional().meta({ description: "Only contracts whose `state` changed at or after this time." }),
  delivery_failed: ZTrueParamSchema.optional().meta({ description: "`true`: only contracts with a participant whose invitation could not be delivered (and nobody has acted on it yet)." }),
  awaiting_me: ZTrueParamSchema.optional().meta({ description: "`true`: only contracts waiting for the calling user's own signature (their turn has come, they have not decided)." }),
  lifecycle_state: z
    .enum(CONTRACT_LIFECYCLE_FILTERS, { error: "must be awaiting, active, ended, canceled or terminated" })
    .optional()
    .meta({
      description:
        "Only signed contracts in this lifecycle state (`lifecycle_state.state`; `active` includes the canceled ones, `ended` the terminated ones), " +
        "or with this sub-state (`canceled`, `terminated`).",
    }),
  ends_after: ZDateSchema.optional().meta({ description: "Only contracts whose `lifecycle_state.end_date` is on or after this date." }),
  ends_before: ZDateSchema.optional().meta({ description: "Only contracts whose `lifecycle_state.end_date` is before this date." }),
  notice_deadline_after: ZDateSchema.optional().meta({ description: "Only contracts whose `lifecycle_state.notice_deadline` is on or after this date." }),
  notice_deadline_before: ZDateSchema.optional().meta({ description: "Only contracts whose `lifecycle_state.notice_deadline` is before this date." }),
  renewed_after: ZTimeParamSchema.optional().meta({ description: "Only contracts that last renewed (`lifecycle_state.renewed_time`) at or after this time." }),
  sort: z
    .enum(CONTRACT_SORTS, { error: "must be id, name, created_time, updated_time, end_date or notice_deadline, optionally preceded by -, or relevance" })
    .optional()
    .meta({
      description:
        "Order; a leading `-` sorts descending. Ties are broken by id. Default `relevance` with `q` (best match first, then newest), else `id`. " +
        "`end_date` and `notice_deadline` (the `lifecycle_state` dates) put contracts without the date last in either direction.",
    }),
});

/** `relevance` ranks matches of `q`: without `q` it is refused, not silently another order. */
const relevanceNeedsQ = (query: { q?: string; sort?: TContractSort }) => query.sort !== "relevance" || query.q !== undefined;
const RELEVANCE_NEEDS_Q = { message: "relevance needs q", path: ["sort"] };

/** `matches` marks where a search matched: without `q` it is refused, not silently ignored. */
const matchesNeedsQ = (query: { q?: string; matches?: "true" }) => query.matches === undefined || query.q !== undefined;
const MATCHES_NEEDS_Q = { message: "matches needs q", path: ["matches"] };

export const ZContractListQuerySchema = ZContractListQueryBaseSchema.refine(relevanceNeedsQ, RELEVANCE_NEEDS_Q).refine(matchesNeedsQ, MATCHES_NEEDS_Q);

/** The order a list query asks for: its `sort`, else `relevance` with `q`, else `id`. */
export function contractSortOf(query: { q?: string; sort?: TContractSort }): TContractSort {
  return query.sort ?? (query.q !== undefined ? "relevance" : "id");
}

/** GET /v1/contracts/export.csv: the list's query without the page (every row, in the list's order). */
export const ZContractExportQuerySchema = ZContractListQueryBaseSchema.omit({ limit: true, offset: true, matches: true }).refine(relevanceNeedsQ, RELEVANCE_NEEDS_Q);

/** The CSV export's body, for the OpenAPI document (`text/csv`). */
export const ZContractCsvSchema = z.string().meta({
  id: "ContractCsv",
  description:
    "UTF-8 with a byte order mark, CRLF line ends (RFC 4180), a header row, then one row per contract: id, name, state, workspace_id, workspace, " +
    "lifecycle_state, lifecycle_sub_state, start_date, period_end_date, end_date, notice_deadline, renewals, created_time, updated_time, " +
    "counterparties (their names, `; ` between). A text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`.",
});

// --- The contract's fields (lib/schemas/field-table.ts): one row per column of `contracts` ---

/** The duration settings' rule (docs/lifecycle.md). */
const TERM_RULE = "on creation (else the template's), or PUT …/lifecycle_settings while a draft; the duration's rules";

/** A contract's fields. `write` names the rule a request writes it under; `frozen: "published"` fields are fixed once published. */
export const CONTRACT_FIELDS = fieldTable({
  id: { sql: "int", answer: { name: "id", type: ZIdSchema }, audit: true },
  name: { sql: "text", answer: { name: "name", type: z.string() }, write: "on creation: 1–100 characters, default the template's name", audit: true },
  state: { sql: "contract_state", answer: { name: "state", type: ZContractStateSchema }, audit: true },
  workspaceId: { sql: "int", answer: { name: "workspace_id", type: ZIdSchema }, write: "on creation: a workspace the caller may create in", audit: true },
  templateId: { sql: "int", answer: { name: "template_id", type: ZIdSchema }, write: "on creation: a template usable in the workspace", audit: true },
  /** Who created it (null for the anonymous admin): the owner, when no organizer is left. */
  createdById: { sql: "int", nullable: true },
  createdAt: { sql: "timestamptz", answer: { name: "created_time", type: ZTimestampSchema } },
  updatedAt: { sql: "timestamptz", answer: { name: "updated_time", type: ZTimestampSchema } },
  publishedAt: { sql: "timestamptz", nullable: true, answer: { name: "published_time", type: ZTimestampSchema.meta({ description: "When the contract was published; null for a draft." }) } },
  stateUpdatedAt: {
    sql: "timestamptz",
    answer: { name: "state_updated_time", type: ZTimestampSchema.meta({ description: "When `state` last changed (the creation time for a draft)." }) },
  },
  signingPeriodExpiresAt: {
    sql: "timestamptz",
    nullable: true,
    answer: {
      name: "signing_period_expiry_time",
      type: ZTimestampSchema.meta({ description: "A pending contract not signed by then becomes `overdue`; set on publish from the template's signing period." }),
    },
  },
  signingOrder: { sql: "signing_order", answer: { name: "signing_order", type: ZSigningOrderSchema }, write: "on creation", audit: true, frozen: "published" },
  delegationAllowed: {
    sql: "boolean",
    answer: { name: "delegation_allowed", type: z.boolean().meta({ description: "Whether a signatory may hand their signature on from the signing page." }) },
    write: "on creation",
    audit: true,
    frozen: "published",
  },
  durationType: { sql: "duration_type", answer: { name: "duration", in: "lifecycle_settings", type: ZDurationSchema }, write: TERM_RULE, audit: true, frozen: "published" },
  startDate: {
    sql: "date",
    nullable: true,
    answer: { name: "start_date", in: "lifecycle_settings", type: ZDateSchema.meta({ description: "The first day; null: the day the contract is signed." }) },
    write: TERM_RULE,
    audit: true,
    frozen: "published",
  },
  endDate: {
    sql: "date",
    nullable: true,
    answer: { name: "end_date", in: "lifecycle_settings", type: ZDateSchema.meta({ description: "The last day of a single period, or of the initial period." }) },
    write: TERM_RULE,
    audit: true,
    frozen: "published",
  },
  initialDuration: { sql: "text", nullable: true, answer: { name: "initial_duration", in: "lifecycle_settings", type: ZPeriodSchema }, write: TERM_RULE, audit: true, frozen: "published" },
  renewalPeriod: { sql: "text", nullable: true, answer: { name: "renewal_period", in: "lifecycle_settings", type: ZPeriodSchema }, write: TERM_RULE, audit: true, frozen: "published" },
  noticePeriod: { sql: "text", nullable: true, answer: { name: "notice_period", in: "lifecycle_settings", type: ZPeriodSchema }, write: TERM_RULE, audit: true, frozen: "published" },
  signedOn: { sql: "date", nullable: true, answer: { name: "signed_date", in: "lifecycle_state", type: ZDateSchema.meta({ description: "The day the last signature was given (workspace time zone); null until signed." }) } },
  lifecycleState: { sql: "lifecycle_state", nullable: true, answer: { name: "state", in: "lifecycle_state", type: ZLifecycleStateSchema.meta({ description: "Null until signed." }) } },
  lifecycleSubState: {
    sql: "lifecycle_sub_state",
    nullable: true,
    answer: { name: "sub_state", in: "lifecycle_state", type: ZLifecycleSubStateSchema.meta({ description: "`canceled`: active, notice given. `terminated`: ended early by staff." }) },
  },
  periodStartDate: { sql: "date", nullable: true, answer: { name: "period_start_date", in: "lifecycle_state", type: ZDateSchema } },
  periodEndDate: { sql: "date", nullable: true, answer: { name: "period_end_date", in: "lifecycle_state", type: ZDateSchema.meta({ description: "The current period's last day; null when it has none." }) } },
  endsOn: { sql: "date", nullable: true, answer: { name: "end_date", in: "lifecycle_state", type: ZDateSchema.meta({ description: "The last day it is in force as things stand; null while it runs on (no duration, or renewing)." }) } },
  noticeDeadline: {
    sql: "date",
    nullable: true,
    answer: { name: "notice_deadline", in: "lifecycle_state", type: ZDateSchema.meta({ description: "The last day notice may be given for it to end at the end of a period (the next such day still ahead); null when notice does not apply." }) },
  },
  renewals: { sql: "int", answer: { name: "renewals", in: "lifecycle_state", type: z.number().int().min(0).meta({ description: "Periods begun since the first." }) } },
  renewedAt: { sql: "timestamptz", nullable: true, answer: { name: "renewed_time", in: "lifecycle_state", type: ZTimestampSchema.meta({ description: "When it last renewed." }) } },
  linkOrigin: { sql: "text", internal: "the origin its mails link under, kept from its publishing (docs/security.md, promise 15)" },
  endOn: { sql: "date", nullable: true, internal: "the notice or termination staff gave (lifecycle_state shows its effect)" },
  endAt: { sql: "timestamptz", nullable: true, internal: "the notice or termination staff gave (lifecycle_state shows its effect)" },
  endKind: { sql: "lifecycle_sub_state", nullable: true, internal: "the notice or termination staff gave (lifecycle_state shows its effect)" },
  lifecycleDueAt: { sql: "timestamptz", nullable: true, internal: "the lifecycle job's next turn for the contract" },
  noticeWarnedFor: { sql: "date", nullable: true, internal: "the lifecycle job's: the deadline whose warning was sent" },
  endWarnedFor: { sql: "date", nullable: true, internal: "the lifecycle job's: the end whose warning was sent" },
  deadlineWarningDays: { sql: "int", nullable: true, internal: "…/reminder_settings (lib/schemas/reminder-settings.ts)" },
  body: { sql: "jsonb", internal: "the text: GET and PUT …/document (lib/schemas/document.ts)" },
  reminderFirstDays: { sql: "int", nullable: true, internal: "…/reminder_settings (lib/schemas/reminder-settings.ts)" },
  reminderIntervalDays: { sql: "int", nullable: true, internal: "…/reminder_settings (lib/schemas/reminder-settings.ts)" },
  reminderMax: { sql: "int", nullable: true, internal: "…/reminder_settings (lib/schemas/reminder-settings.ts)" },
  expiryWarningDays: { sql: "int", nullable: true, internal: "…/reminder_settings (lib/schemas/reminder-settings.ts)" },
});

// --- Responses ---

const contractFields = answerShapeOf(CONTRACT_FIELDS, {
  _links: z.object({ self: ZLinkSchema, parties: ZLinkSchema, data_fields: ZLinkSchema }),
});

export const ZContractSchema = z
  .object({
    ...contractFields,
    parties: z.array(ZPartySchema).meta({ description: "The owner-side party (`my_party: true`) and the counterparties." }),
  })
  .meta({ id: "Contract" });

/** Where a contract matched `q` (docs/api.md "Finding contracts"). */
export const CONTRACT_SEARCH_FIELDS = ["name", "party", "party_identification_number", "participant_name", "participant_email", "data_field", "heading", "text"] as const;
export const ZContractSearchSchema = z
  .object({
    matches: z
      .array(
        z.object({
          field: z.enum(CONTRACT_SEARCH_FIELDS),
          label: z.string().nullable().meta({ description: "The data field's name, or the section's heading for `text`; else null." }),
          highlight: z.array(z.string()).meta({
            description:
              "The matching text (around its first match when long, `…` where cut) in pieces: the 2nd, 4th, … (odd indexes) are the matched words. Plain text, never markup.",
          }),
        }),
      )
      .meta({ description: "At most 5, in this order: name, parties, participants, data fields, text." }),
  })
  .meta({ id: "ContractSearch" });

export const ZContractListItemSchema = z
  .object({
    ...contractFields,
    parties: z.array(ZPartySummarySchema),
    _search: ZContractSearchSchema.optional().meta({ description: "With `q` and `matches=true` only: why the contract matched." }),
  })
  .meta({ id: "ContractListItem" });

export const ZContractListSchema = ZPaginatedSchema(ZContractListItemSchema)
  .extend({
    count_exact: z.boolean().optional().meta({
      description:
        `With \`q\` only. \`false\`: more than ${SEARCH_MATCH_LIMIT} contracts match, and the list holds the newest ${SEARCH_MATCH_LIMIT} of them ` +
        `in the order asked; \`count\` is then ${SEARCH_MATCH_LIMIT}. Add words to narrow the search.`,
    }),
  })
  .meta({ id: "ContractList" });

export type TCreateContractRequest = z.infer<typeof ZCreateContractRequestSchema>;
export type TCreateContractRequestInput = z.input<typeof ZCreateContractRequestSchema>;
export type TContractPathParams = z.infer<typeof ZContractPathParamsSchema>;
export type TContractSort = (typeof CONTRACT_SORTS)[number];
export type TContractListQuery = z.infer<typeof ZContractListQuerySchema>;
export type TContractExportQuery = z.infer<typeof ZContractExportQuerySchema>;
export type TContract = z.infer<typeof ZContractSchema>;
export type TContractListItem = z.infer<typeof ZContractListItemSchema>;
export type TContractSearch = z.infer<typeof ZContractSearchSchema>;
export type TContractList = z.infer<typeof ZContractListSchema>;
