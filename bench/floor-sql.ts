// The floor's SQL: every benchmark request answered by ONE statement that does the whole job —
// the API token check (sha256 hash, not revoked, `last_used_at` touched at most once a minute as the
// app does), the user check (`x-service-user-email` → an active user; admin, or the workspaces of
// their memberships), the workspace scope, the rows, and the response JSON built by PostgreSQL
// (row_to_json / array_to_json: compact, keys in the app's order), which the server passes through
// as text. The PUT is one statement too: data-modifying CTEs lock the participant, check what the
// app checks (visible, role may write, contract editable, the template's participant rules), update
// the participant, touch its party and write the audit event — the rows the app writes.
//
// Shared by the floor (bench/floor.ts, bare node:http + pg) and the reference route inside Next.js
// (app/v1/bench-reference/[...path]/route.bench.ts), so both run literally the same statements;
// bench/explain.ts explains them (FLOOR_STATEMENTS).
//
// Rows are paged first and turned into JSON after (a LIMIT/OFFSET over the JSON-building select
// would build the JSON of every skipped row too).
//
// Only what the benchmark sends is supported (default filters and sort); anything else is a 400.
// The answers must equal the app's (bench/run.ts compares them before measuring).
import { createHash, randomUUID } from "node:crypto";

export interface Queryable {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
}

/** The request as the floor and the reference see it (path under /v1, as the app's). */
export interface FloorRequest {
  method: string;
  /** `/v1/…` */
  pathname: string;
  searchParams: URLSearchParams;
  token: string | null;
  email: string | null;
  contentType: string | null;
  /** `http://host[:port]`, from the request (as the app builds its links). */
  origin: string;
  requestId?: string | null;
  readBody(): Promise<string>;
}

export interface FloorResponse {
  status: number;
  /** JSON text. */
  body: string;
  etag?: string;
}

const PAGE_MAX = 100;
const MAX_OFFSET = 19_900;

// --- SQL building blocks (pure text; every statement is a constant built once) ---

/** The API's timestamp: ISO 8601, UTC, milliseconds, `+00:00` (lib/api/serializers/time.ts). */
const iso = (e: string) => `to_char((${e}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"+00:00"')`;
/** A calendar date as the API writes it. */
const day = (e: string) => `to_char(${e}, 'YYYY-MM-DD')`;

/** A compact JSON object with these keys in this order: row_to_json of a one-row subselect. */
function obj(fields: [string, string][]): string {
  return `(SELECT row_to_json(o) FROM (SELECT ${fields.map(([k, v]) => `${v} AS "${k}"`).join(", ")}) o)`;
}
const href = (e: string) => obj([["href", e]]);
/** A compact JSON array of the rows of `from` (each row's columns in order), ordered by its `id`; `[]` when none. */
const arr = (from: string) => `coalesce((SELECT array_to_json(array_agg(row_to_json(a) ORDER BY a.id)) FROM (${from}) a), '[]'::json)`;
const cols = (fields: [string, string][]) => fields.map(([k, v]) => `${v} AS "${k}"`).join(", ");

/**
 * Authentication as CTEs. $1 token hash, $2 e-mail (trimmed, lower-case) or null (no header:
 * the anonymous admin). `act` has one row when both checks pass: the token, the user (null for the
 * anonymous admin), admin or not, the visible workspaces (null = all) and those the user may change.
 */
const AUTH = `
tok AS (
  SELECT id, last_used_at FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL
),
touch AS (
  UPDATE api_tokens t SET last_used_at = now() FROM tok
   WHERE t.id = tok.id AND (tok.last_used_at IS NULL OR tok.last_used_at < now() - interval '60 seconds')
  RETURNING t.id
),
act AS (
  SELECT tok.id AS token_id, u.id AS user_id, u.name AS user_name, u.email AS user_email, coalesce(u.is_admin, true) AS is_admin,
         CASE WHEN coalesce(u.is_admin, true) THEN NULL::int[]
              ELSE ARRAY(SELECT m.workspace_id FROM workspace_memberships m WHERE m.user_id = u.id) END AS ws,
         CASE WHEN coalesce(u.is_admin, true) THEN NULL::int[]
              ELSE ARRAY(SELECT m.workspace_id FROM workspace_memberships m WHERE m.user_id = u.id AND m.role = 'editor') END AS editable
    FROM tok LEFT JOIN users u ON u.active AND u.email = $2::text
   WHERE $2::text IS NULL OR u.id IS NOT NULL
)`;
const AUTH_COLUMNS = `(SELECT count(*) FROM tok)::int AS token_ok, (SELECT count(*) FROM act)::int AS actor_ok`;
const IS_ADMIN = `(SELECT is_admin FROM act)`;
const visible = (c: string) => `(${IS_ADMIN} OR ${c}.workspace_id = ANY((SELECT ws FROM act)::int[]))`;
const writable = (c: string) => `(${IS_ADMIN} OR ${c}.workspace_id = ANY((SELECT editable FROM act)::int[]))`;

/** test/oracle/serializers.ts contractFields; `o` = the origin parameter. */
const contractFields = (c: string, o: string): [string, string][] => [
  ["id", `${c}.id`],
  ["name", `${c}.name`],
  ["state", `${c}.state`],
  ["workspace_id", `${c}.workspace_id`],
  ["template_id", `${c}.template_id`],
  ["created_time", iso(`${c}.created_at`)],
  ["updated_time", iso(`${c}.updated_at`)],
  ["published_time", iso(`${c}.published_at`)],
  ["state_updated_time", iso(`${c}.state_updated_at`)],
  ["signing_period_expiry_time", iso(`${c}.signing_period_expires_at`)],
  ["signing_order", `${c}.signing_order`],
  ["delegation_allowed", `${c}.delegation_allowed`],
  [
    "lifecycle_settings",
    obj([
      ["duration", `${c}.duration_type`],
      ["start_date", day(`${c}.start_date`)],
      ["end_date", day(`${c}.end_date`)],
      ["initial_duration", `${c}.initial_duration`],
      ["renewal_period", `${c}.renewal_period`],
      ["notice_period", `${c}.notice_period`],
    ]),
  ],
  [
    "lifecycle_state",
    obj([
      ["signed_date", day(`${c}.signed_on`)],
      ["state", `${c}.lifecycle_state`],
      ["sub_state", `${c}.lifecycle_sub_state`],
      ["period_start_date", day(`${c}.period_start_date`)],
      ["period_end_date", day(`${c}.period_end_date`)],
      ["end_date", day(`${c}.ends_on`)],
      ["notice_deadline", day(`${c}.notice_deadline`)],
      ["renewals", `${c}.renewals`],
      ["renewed_time", iso(`${c}.renewed_at`)],
    ]),
  ],
  [
    "_links",
    obj([
      ["self", href(`${o} || '/v1/contracts/' || ${c}.id`)],
      ["parties", href(`${o} || '/v1/contracts/' || ${c}.id || '/parties'`)],
      ["data_fields", href(`${o} || '/v1/contracts/' || ${c}.id || '/data_fields'`)],
    ]),
  ],
];

/** test/oracle/serializers.ts partyFields (no links). */
const partyFields = (p: string): [string, string][] => [
  ["id", `${p}.id`],
  ["name", `${p}.name`],
  ["country_code", `${p}.country_code`],
  ["identification_number", `${p}.identification_number`],
  ["my_party", `${p}.my_party`],
  ["_private_ownerside", obj([["created_time", iso(`${p}.created_at`)], ["updated_time", iso(`${p}.updated_at`)]])],
];

/** test/oracle/serializers.ts serializeParticipant, with `_links` when `links` gives the origin, contract and party expressions. */
const participantFields = (q: string, links?: { o: string; contract: string; party: string }): [string, string][] => [
  ["id", `${q}.id`],
  ["name", `${q}.name`],
  ["title", `${q}.title`],
  ["email", `${q}.email`],
  ["phone_number", `${q}.phone_number`],
  ["identification_number", `${q}.identification_number`],
  ["delivery_channel", `${q}.delivery_channel`],
  ["delivery_status", `${q}.delivery_status`],
  ["sign_method", `${q}.sign_method`],
  ["sign_state", `${q}.sign_state`],
  ["sign_state_updated_time", iso(`${q}.sign_state_updated_at`)],
  ["signatory", `${q}.signatory`],
  ["sign_order", `${q}.sign_order`],
  ["delegated_to_id", `${q}.delegated_to_id`],
  ["two_step_authentication_method", `${q}.two_step_authentication_method`],
  ["organizer", `${q}.organizer`],
  ["my_participant", `coalesce(${q}.user_id = (SELECT user_id FROM act), false)`],
  ["_permissions", obj([["contract:update", `${q}.can_update_contract`]])],
  [
    "_private_ownerside",
    obj([
      ["created_time", iso(`${q}.created_at`)],
      ["first_visited_time", iso(`${q}.first_visited_at`)],
      ["last_visited_time", iso(`${q}.last_visited_at`)],
      ["updated_time", iso(`${q}.updated_at`)],
      ["visits", `${q}.visits`],
      ["two_step_locked_time", iso(`${q}.two_step_locked_at`)],
      ["delivery_failed_time", iso(`${q}.delivery_failed_at`)],
      ["delivery_failure", `${q}.delivery_failure`],
      ["reminders_sent", `${q}.reminders_sent`],
      ["last_reminded_time", iso(`${q}.last_reminded_at`)],
      ["invited_time", iso(`${q}.invited_at`)],
      ["delegated_time", iso(`${q}.delegated_at`)],
    ]),
  ],
  ...(links
    ? ([
        [
          "_links",
          obj([
            ["contract", href(`${links.o} || '/v1/contracts/' || ${links.contract}`)],
            ["party", href(`${links.o} || '/v1/contracts/' || ${links.contract} || '/parties/' || ${links.party}`)],
            ["self", href(`${links.o} || '/v1/contracts/' || ${links.contract} || '/parties/' || ${links.party} || '/participants/' || ${q}.id`)],
          ]),
        ],
      ] as [string, string][])
    : []),
];

/**
 * The list envelope's `_links` (lib/api/pagination.ts): `base` is the collection URL with the query
 * before limit/offset (e.g. `…/v1/contracts?sort=id&`), `limit` null for `all`.
 */
const pageLinks = (base: string, limit: string, offset: string, count: string): string =>
  obj([
    ["self", href(`${base} || 'limit=' || coalesce(${limit}::text, 'all') || '&offset=' || ${offset}`)],
    [
      "next",
      href(
        `CASE WHEN ${limit} IS NOT NULL AND ${offset} + ${limit} < ${count} AND ${offset} + ${limit} <= ${MAX_OFFSET}
              THEN ${base} || 'limit=' || ${limit} || '&offset=' || (${offset} + ${limit}) END`,
      ),
    ],
    [
      "previous",
      href(`CASE WHEN ${limit} IS NOT NULL AND ${offset} > 0 THEN ${base} || 'limit=' || ${limit} || '&offset=' || greatest(0, ${offset} - ${limit}) END`),
    ],
  ]);

// --- The statements ---

/** GET /v1/ping: no credentials, one trivial statement. */
const PING = `SELECT row_to_json(x)::text AS body FROM (SELECT 'ok' AS status) x`;

/**
 * GET /v1/contracts?limit&offset (default filters, sort=id). $3 origin, $4 limit, $5 offset.
 * The page and the count come in two branches gated by whether the caller is an admin (a one-time
 * filter: the other branch never runs). The count sums the per-workspace totals and their deltas
 * not folded yet (contract_counts, contract_count_deltas), as the app's does.
 */
const LIST_CONTRACTS = `
WITH ${AUTH},
page AS (
  (SELECT c.* FROM contracts c WHERE ${IS_ADMIN} ORDER BY c.id LIMIT $4 OFFSET $5)
  UNION ALL
  (SELECT c.* FROM contracts c WHERE NOT ${IS_ADMIN} AND c.workspace_id = ANY((SELECT ws FROM act)::int[]) ORDER BY c.id LIMIT $4 OFFSET $5)
),
counted AS (
  SELECT workspace_id, n FROM contract_counts UNION ALL SELECT workspace_id, n FROM contract_count_deltas
),
total AS (
  SELECT COALESCE(sum(n), 0)::int AS n FROM (
    SELECT n FROM counted c WHERE ${IS_ADMIN}
    UNION ALL
    SELECT n FROM counted c WHERE NOT ${IS_ADMIN} AND c.workspace_id = ANY((SELECT ws FROM act)::int[])
  ) t
)
SELECT ${AUTH_COLUMNS},
  CASE WHEN EXISTS (SELECT 1 FROM act) THEN (
    SELECT row_to_json(e)::text FROM (
      SELECT total.n AS count,
        ${arr(`SELECT ${cols(contractFields("c", "$3::text"))},
                 ${arr(`SELECT ${cols([...partyFields("p"), ["type", "p.type"]])} FROM parties p WHERE p.contract_id = c.id`)} AS parties
            FROM page c`)} AS data,
        ${pageLinks(`$3::text || '/v1/contracts?sort=id&'`, "$4::int", "$5::int", "total.n")} AS _links
      FROM total
    ) e
  ) END AS body`;

/** A contract's parties with their people (test/oracle/serializers.ts serializeParty). */
const fullParties = (c: string) =>
  `coalesce((SELECT array_to_json(array_agg(
      CASE WHEN p.type = 'company'
        THEN (SELECT row_to_json(x) FROM (SELECT ${cols([...partyFields("p"), ["type", "p.type"]])},
                ${arr(`SELECT ${cols(participantFields("q"))} FROM participants q WHERE q.party_id = p.id`)} AS participants) x)
        ELSE (SELECT row_to_json(x) FROM (SELECT ${cols([...partyFields("p"), ["type", "p.type"]])},
                (SELECT row_to_json(a) FROM (SELECT ${cols(participantFields("q"))} FROM participants q WHERE q.party_id = p.id ORDER BY q.id LIMIT 1) a) AS participant) x)
      END ORDER BY p.id))
    FROM parties p WHERE p.contract_id = ${c}.id), '[]'::json)`;

/** GET /v1/contracts/{id}. $3 origin, $4 contract id. */
const GET_CONTRACT = `
WITH ${AUTH}
SELECT ${AUTH_COLUMNS},
  (SELECT row_to_json(e)::text FROM (
     SELECT ${cols(contractFields("c", "$3::text"))}, ${fullParties("c")} AS parties
       FROM contracts c WHERE c.id = $4 AND ${visible("c")}
  ) e) AS body`;

/** GET /v1/contracts/{id}/data_fields?limit&offset (limit null = all). $3 origin, $4 contract id, $5 limit, $6 offset. */
const LIST_DATA_FIELDS = `
WITH ${AUTH}
SELECT ${AUTH_COLUMNS},
  (SELECT row_to_json(e)::text FROM (
     SELECT k.n AS count,
       ${arr(`SELECT f.id, f.name, f.description, f.placeholder, f.value,
                ${obj([["created_time", iso("f.created_at")], ["custom_id", "f.custom_id"], ["updated_time", iso("f.updated_at")]])} AS _private_ownerside,
                ${obj([
                  ["contract", href(`$3::text || '/v1/contracts/' || c.id`)],
                  ["self", href(`$3::text || '/v1/contracts/' || c.id || '/data_fields/' || f.id`)],
                ])} AS _links
              FROM (SELECT * FROM contract_data_fields WHERE contract_id = c.id ORDER BY id LIMIT $5 OFFSET $6) f`)} AS data,
       ${pageLinks(`$3::text || '/v1/contracts/' || c.id || '/data_fields?'`, "$5::int", "$6::int", "k.n")} AS _links
     FROM contracts c, LATERAL (SELECT count(*)::int AS n FROM contract_data_fields f WHERE f.contract_id = c.id) k
     WHERE c.id = $4 AND ${visible("c")}
  ) e) AS body`;

/** GET /v1/template_types?limit&offset: every template type (no workspace scope), for any authenticated caller. $3 origin, $4 limit, $5 offset. */
const LIST_TEMPLATE_TYPES = `
WITH ${AUTH}
SELECT ${AUTH_COLUMNS},
  CASE WHEN EXISTS (SELECT 1 FROM act) THEN (
    SELECT row_to_json(e)::text FROM (
      SELECT k.n AS count,
        ${arr(`SELECT t.id, t.name, t.description, t.extension_type, t.active,
                 ${iso("t.created_at")} AS created_time, ${iso("t.updated_at")} AS updated_time,
                 ${obj([["self", href(`$3::text || '/v1/template_types/' || t.id`)]])} AS _links
               FROM (SELECT * FROM template_types ORDER BY id LIMIT $4 OFFSET $5) t`)} AS data,
        ${pageLinks(`$3::text || '/v1/template_types?'`, "$4::int", "$5::int", "k.n")} AS _links
      FROM (SELECT count(*)::int AS n FROM template_types) k
    ) e
  ) END AS body`;

const PARTICIPANT_COLUMNS = `id, party_id, user_id, name, title, email, phone_number, identification_number, delivery_channel,
  delivery_status, sign_method, sign_state, sign_state_updated_at, signatory, sign_order, delegated_to_id,
  two_step_authentication_method, organizer, can_update_contract, visits, first_visited_at, last_visited_at,
  two_step_locked_at, delivery_failed_at, delivery_failure, reminders_sent, last_reminded_at, invited_at, delegated_at,
  version, created_at, updated_at`;

/**
 * PUT /v1/contracts/{c}/parties/{p}/participants/{q} with `{"title": …}`: what the app's
 * updateParticipant does for a title, in one statement. $3 origin, $4 contract, $5 party,
 * $6 participant, $7 title, $8 request id.
 *  - `target` locks the contract's and the participant's rows (FOR UPDATE, as the app) and finds it
 *    only as this party's of this contract of a visible workspace (else 404); it also answers whether
 *    the caller may write there (403), whether the contract is draft or pending (409) and whether
 *    the participant still satisfies the template's rules (the attributes its delivery channel and
 *    two-step method require are filled in; a signatory may update the contract) (400);
 *  - `upd` changes the title, increments `version`, sets `updated_at` (only when the title changes);
 *  - `pty` and `ctr` set the party's and the contract's `updated_at` to the same time (the app's touches);
 *  - `aud` writes the audit event (participant.update, before/after title, user, token, via,
 *    request id, the contract's workspace, the user's name and e-mail as they are now), as
 *    lib/services/audit/write-audit-event.ts does; the contract's audit chain is the trigger's.
 */
const UPDATE_PARTICIPANT = `
WITH ${AUTH},
target AS (
  SELECT q.*, c.workspace_id, c.id AS contract_id,
         ${writable("c")} AS may_write,
         c.state IN ('draft', 'pending') AS editable,
         (NOT EXISTS (
            SELECT 1 FROM (
              SELECT unnest(d.required_participant_attributes)::text AS attr FROM template_delivery_channels d
               WHERE d.template_id = c.template_id AND d.name = q.delivery_channel
              UNION ALL
              SELECT unnest(s.required_participant_attributes)::text FROM template_two_step_methods s
               WHERE s.template_id = c.template_id AND s.name = q.two_step_authentication_method
            ) r
            WHERE btrim(CASE r.attr WHEN 'email' THEN q.email WHEN 'phone_number' THEN q.phone_number ELSE 'x' END) = ''
          ) AND (NOT q.signatory OR q.can_update_contract)) AS rules_ok
    FROM participants q
    JOIN parties p ON p.id = q.party_id AND p.contract_id = $4
    JOIN contracts c ON c.id = p.contract_id
   WHERE q.id = $6 AND q.party_id = $5 AND ${visible("c")}
   FOR UPDATE OF c, q
),
upd AS (
  UPDATE participants q SET title = $7::text, version = q.version + 1, updated_at = now()
    FROM target t
   WHERE q.id = t.id AND t.may_write AND t.editable AND t.rules_ok AND t.title IS DISTINCT FROM $7::text
  RETURNING q.${PARTICIPANT_COLUMNS.split(",").map((s) => s.trim()).join(", q.")}
),
pty AS (
  UPDATE parties p SET updated_at = u.updated_at FROM upd u WHERE p.id = u.party_id RETURNING p.id
),
ctr AS (
  UPDATE contracts c SET updated_at = u.updated_at FROM upd u, target t WHERE c.id = t.contract_id RETURNING c.id
),
aud AS (
  INSERT INTO audit_events (action, entity_type, entity_id, contract_id, actor_user_id, api_token_id, via, request_id, before, after, workspace_id,
                            actor_name, actor_email)
  SELECT 'participant.update', 'participant', u.id, t.contract_id, (SELECT user_id FROM act), (SELECT token_id FROM act), 'api_token', $8::text,
         jsonb_build_object('title', t.title), jsonb_build_object('title', u.title), t.workspace_id,
         (SELECT user_name FROM act), (SELECT user_email FROM act)
    FROM upd u, target t
  RETURNING id
),
result AS (
  SELECT ${PARTICIPANT_COLUMNS} FROM upd
  UNION ALL
  SELECT ${PARTICIPANT_COLUMNS} FROM target t WHERE NOT EXISTS (SELECT 1 FROM upd) AND t.may_write AND t.editable AND t.rules_ok
)
SELECT ${AUTH_COLUMNS},
  CASE WHEN NOT EXISTS (SELECT 1 FROM target) THEN 404
       WHEN NOT (SELECT may_write FROM target) THEN 403
       WHEN NOT (SELECT editable FROM target) THEN 409
       WHEN NOT (SELECT rules_ok FROM target) THEN 400
       ELSE 200 END AS status,
  (SELECT '"p' || r.id || '-v' || r.version || '"' FROM result r) AS etag,
  (SELECT row_to_json(a)::text FROM (SELECT ${cols(participantFields("r", { o: "$3::text", contract: "$4::int", party: "$5::int" }))} FROM result r) a) AS body,
  (SELECT count(*) FROM pty)::int + (SELECT count(*) FROM ctr)::int + (SELECT count(*) FROM aud)::int AS written`;

/** Every statement by name (prepared under these names; bench/explain.ts explains them). */
export const FLOOR_STATEMENTS = {
  ping: PING,
  listContracts: LIST_CONTRACTS,
  getContract: GET_CONTRACT,
  listDataFields: LIST_DATA_FIELDS,
  listTemplateTypes: LIST_TEMPLATE_TYPES,
  updateParticipant: UPDATE_PARTICIPANT,
} as const;
export type FloorStatement = keyof typeof FLOOR_STATEMENTS;

/** Sample parameters for EXPLAIN (bench/explain.ts): what a request of the benchmark sends. */
export function floorParams(
  name: FloorStatement,
  a: { token: string; email: string | null; origin: string; contractId?: number; partyId?: number; participantId?: number; offset?: number; title?: string },
): unknown[] {
  const auth = [hashToken(a.token), a.email, a.origin];
  switch (name) {
    case "ping":
      return [];
    case "listContracts":
      return [...auth, 100, a.offset ?? 0];
    case "getContract":
      return [...auth, a.contractId];
    case "listDataFields":
      return [...auth, a.contractId, null, 0];
    case "listTemplateTypes":
      return [...auth, 100, a.offset ?? 19_900];
    case "updateParticipant":
      return [...auth, a.contractId, a.partyId, a.participantId, a.title ?? "Explained title", randomUUID()];
  }
}

// --- Request handling (shared by the floor and the reference route) ---

class FloorError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const problem = (status: number, detail: string): FloorResponse => ({ status, body: JSON.stringify({ status, detail }) });

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

function parseId(raw: string | undefined): number {
  if (!raw || !/^\d{1,10}$/.test(raw)) throw new FloorError(404, "not found");
  const id = Number(raw);
  if (id < 1 || id > 2_147_483_647) throw new FloorError(404, "not found");
  return id;
}

function pagination(params: URLSearchParams, allowAll: boolean): { limit: number | null; offset: number } {
  for (const key of params.keys()) {
    if (key !== "limit" && key !== "offset") throw new FloorError(400, `the floor supports only limit and offset, not ${key}`);
  }
  const rawLimit = params.get("limit") ?? "100";
  const rawOffset = params.get("offset") ?? "0";
  const limit = allowAll && rawLimit === "all" ? null : /^\d{1,3}$/.test(rawLimit) ? Number(rawLimit) : NaN;
  const offset = /^\d{1,5}$/.test(rawOffset) ? Number(rawOffset) : NaN;
  if (limit !== null && !(limit >= 1 && limit <= PAGE_MAX)) throw new FloorError(400, "bad limit");
  if (!(offset >= 0 && offset <= MAX_OFFSET)) throw new FloorError(400, "bad offset");
  return { limit, offset };
}

export interface FloorOptions {
  /**
   * Prepare each statement once per connection under its name (no parsing or planning from scratch
   * per request). Not on the embedded database: all its connections share one session, where a
   * name can be prepared only once.
   */
  prepared: boolean;
}

async function run(db: Queryable, name: FloorStatement, values: unknown[], options: FloorOptions): Promise<Record<string, unknown>> {
  const { rows } = await db.query({ ...(options.prepared ? { name: `floor_${name}` } : {}), text: FLOOR_STATEMENTS[name], values });
  return rows[0] ?? {};
}

/** 401 unless the token and the user passed, then 404 for a missing body, else 200 with it. */
function authenticated(row: Record<string, unknown>): FloorResponse {
  if (row.token_ok !== 1) return problem(401, "The API token is invalid or has been revoked.");
  if (row.actor_ok !== 1) return problem(401, "No active user has the e-mail given in x-service-user-email.");
  if (typeof row.body !== "string") return problem(404, "The resource does not exist.");
  return { status: 200, body: row.body };
}

export async function answerFloorRequest(db: Queryable, req: FloorRequest, options: FloorOptions): Promise<FloorResponse> {
  try {
    const parts = req.pathname.split("/").filter(Boolean);
    if (parts[0] !== "v1") throw new FloorError(404, "not found");
    if (parts[1] === "ping" && parts.length === 2 && req.method === "GET") {
      const row = await run(db, "ping", [], options);
      return { status: 200, body: row.body as string };
    }
    // The credentials, checked as lib/api/auth.ts does before any SQL.
    const token = req.token;
    if (!token || token.length < 16 || token.length > 512) return problem(401, "The API token is invalid or has been revoked.");
    if (req.email === "" || (req.email !== null && req.email.length > 320)) return problem(401, "unknown user");
    const auth = [hashToken(token), req.email === null ? null : req.email.trim().toLowerCase(), req.origin];

    if (req.method === "GET") {
      if (parts[1] === "contracts" && parts.length === 2) {
        const { limit, offset } = pagination(req.searchParams, false);
        return authenticated(await run(db, "listContracts", [...auth, limit, offset], options));
      }
      if (parts[1] === "contracts" && parts.length === 3) {
        return authenticated(await run(db, "getContract", [...auth, parseId(parts[2])], options));
      }
      if (parts[1] === "contracts" && parts.length === 4 && parts[3] === "data_fields") {
        const id = parseId(parts[2]);
        const { limit, offset } = pagination(req.searchParams, true);
        return authenticated(await run(db, "listDataFields", [...auth, id, limit, offset], options));
      }
      if (parts[1] === "template_types" && parts.length === 2) {
        const { limit, offset } = pagination(req.searchParams, false);
        return authenticated(await run(db, "listTemplateTypes", [...auth, limit, offset], options));
      }
    }
    if (req.method === "PUT" && parts[1] === "contracts" && parts.length === 7 && parts[3] === "parties" && parts[5] === "participants") {
      const [contractId, partyId, participantId] = [parseId(parts[2]), parseId(parts[4]), parseId(parts[6])];
      if (!(req.contentType ?? "").toLowerCase().startsWith("application/json")) throw new FloorError(415, "JSON only");
      let body: unknown;
      try {
        body = JSON.parse(await req.readBody());
      } catch {
        throw new FloorError(400, "malformed JSON");
      }
      if (typeof body !== "object" || body === null || Array.isArray(body)) throw new FloorError(400, "the body must be an object");
      const title = (body as { title?: unknown }).title;
      if (Object.keys(body).some((k) => k !== "title") || typeof title !== "string" || title.length > 100) {
        throw new FloorError(400, "the floor supports only a title (a string of at most 100 characters)");
      }
      const row = await run(db, "updateParticipant", [...auth, contractId, partyId, participantId, title, req.requestId ?? randomUUID()], options);
      const answer = authenticated(row);
      if (answer.status === 401) return answer;
      const status = row.status as number;
      if (status !== 200) return problem(status, status === 404 ? "The resource does not exist." : "refused");
      return { status: 200, body: row.body as string, etag: row.etag as string };
    }
    throw new FloorError(404, "not found");
  } catch (error) {
    if (error instanceof FloorError) return problem(error.status, error.message);
    throw error;
  }
}
