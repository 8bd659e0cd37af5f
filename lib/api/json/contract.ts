// The contract answers (TContract, TContractListItem), written by PostgreSQL: the one producer of
// those shapes. The reads run in the authentication's statement (lib/db/sql.ts `TPreload`).
import type { Tx } from "@/lib/db";
import { ACTING_USER_ID, answerOf, AUTH_CTE, bytesFromEscaped, inScope, isoTimeSql, jsonRow, listHeadSql, SqlParams, textByPlaceholders, utf8BytesEscaped, type TPreload } from "@/lib/db/sql";
import type { Actor } from "@/lib/domain/actor";
import { linkBase as linkBaseOf } from "@/lib/http/origin";
import type { TContractListQuery } from "@/lib/schemas";
import { pageFormFor, type TPageForm } from "@/lib/services/page-args";
import { contractFilterSql } from "@/lib/api/json/contract-filter";
import { actingUserIdOf } from "@/lib/api/json/participant";
import { PARTY_SUMMARY_SQL, partyJsonSql } from "@/lib/api/json/party";
import { contractNotFound } from "@/lib/services/not-found";

/**
 * The fields every contract answer starts with, for the contract `c`, with links under `base` (an
 * SQL text expression: the origin without a trailing slash).
 */
function contractFieldsSql(base: string): Record<string, string> {
  const self = `${base} || '/v1/contracts/' || c.id`;
  const href = (url: string) => jsonRow({ href: url });
  return {
    id: "c.id",
    name: "c.name",
    state: "c.state",
    workspace_id: "c.workspace_id",
    template_id: "c.template_id",
    created_time: isoTimeSql("c.created_at"),
    updated_time: isoTimeSql("c.updated_at"),
    published_time: isoTimeSql("c.published_at"),
    state_updated_time: isoTimeSql("c.state_updated_at"),
    signing_period_expiry_time: isoTimeSql("c.signing_period_expires_at"),
    signing_order: "c.signing_order",
    delegation_allowed: "c.delegation_allowed",
    _links: jsonRow({ self: href(self), parties: href(`${self} || '/parties'`), data_fields: href(`${self} || '/data_fields'`) }),
  };
}

/** The contract `c` with its parties and their people (TContract); `me` as in `partyJsonSql`. */
function contractJsonSql(base: string, me: string): string {
  return jsonRow({
    ...contractFieldsSql(base),
    parties: `COALESCE((SELECT json_agg(${partyJsonSql(me)} ORDER BY p.id) FROM parties p WHERE p.contract_id = c.id), '[]')`,
  });
}

/**
 * GET /v1/contracts/{id}: the answer for the caller (links under `linkBase`, the origin without a
 * trailing slash), as UTF-8 bytes (lib/db/sql.ts `utf8BytesEscaped`), if the caller may see the
 * contract; else null.
 */
export function contractDetailPreload(contractId: number, linkBase: string): TPreload {
  return ({ p }) => CONTRACT_DETAIL_SQL(p(linkBase, "text"), p(contractId, "int"));
}

const CONTRACT_DETAIL_SQL = textByPlaceholders(
  (linkBase: string, contractId: string) =>
    `(SELECT ${utf8BytesEscaped(`${contractJsonSql(linkBase, ACTING_USER_ID)}::text`)} FROM contracts c, ${AUTH_CTE.scope} WHERE c.id = ${contractId} AND ${inScope("c")})`,
);

/**
 * The answer of contract `id` for `actor` (a contract just created or published), as JSON text; on
 * `db`, so inside a transaction it sees the transaction's writes (the stored idempotent answer).
 */
export async function contractAnswer(db: Tx, actor: Actor, origin: string, id: number): Promise<string> {
  const q = new SqlParams();
  const text = CONTRACT_ANSWER_SQL(q.p(linkBaseOf(origin), "text"), q.p(actingUserIdOf(actor), "int"), q.p(id, "int"));
  return answerOf(db, text, q.values, `contract ${id}`);
}

const CONTRACT_ANSWER_SQL = textByPlaceholders((base: string, me: string, id: string) => `SELECT ${contractJsonSql(base, me)}::text AS answer FROM contracts c WHERE c.id = ${id}`);

/** The preloaded answer's bytes, or the 404 of a contract the caller may not see. */
export function preloadedContract(preloaded: unknown, contractId: number): Buffer<ArrayBuffer> {
  if (preloaded === null || preloaded === undefined) throw contractNotFound(contractId);
  if (typeof preloaded !== "string") throw new Error("a contract preload is not the expected text");
  return bytesFromEscaped(preloaded);
}

const SORT_COLUMNS = { id: "id", name: "name", created_time: "created_at", updated_time: "updated_at" } as const;

/**
 * GET /v1/contracts: a page of the contracts the caller may see, filtered and sorted (ties broken
 * by id), and their count, as the start of the answer's JSON text: `{"count":…,"data":[…]` with
 * each item a TContractListItem (links under `linkBase`, the origin without a trailing slash). A
 * page is ~100 KB of JSON: PostgreSQL writes it once, and the route only appends `_links`, instead
 * of parsing and writing it again.
 */
export function contractListPreload(query: TContractListQuery, linkBase: string, pageForm: TPageForm = pageFormFor(query.offset)): TPreload {
  return ({ p }) => {
    const { conditions: where, byWorkspaceAndStateOnly } = contractFilterSql(query, p);
    const direction = query.sort.startsWith("-") ? "DESC" : "ASC";
    const column = SORT_COLUMNS[query.sort.replace(/^-/, "") as keyof typeof SORT_COLUMNS];
    const order = (alias: string) => (column === "id" ? `${alias}.id ${direction}` : `${alias}.${column} ${direction}, ${alias}.id ${direction}`);
    // Written twice, without and with the workspace condition, and only one runs: a condition
    // `all_ws OR workspace_id = ANY(ws)` would be checked row by row, and its cost made the planner
    // count 100,000 contracts with parallel workers on every request.
    const filter = (scoped: boolean) => [...where, ...(scoped ? ["c.workspace_id = ANY(scope.ws)"] : [])].join(" AND ") || "true";
    const either = (sql: (scoped: boolean) => string) => `CASE WHEN scope.all_ws THEN ${sql(false)} ELSE ${sql(true)} END`;
    const item = jsonRow({
      ...contractFieldsSql(p(linkBase, "text")),
      parties: `COALESCE((SELECT json_agg(${PARTY_SUMMARY_SQL} ORDER BY p.id) FROM parties p WHERE p.contract_id = c.id), '[]')`,
    });
    const limit = p(query.limit, "int");
    const offset = p(query.offset, "int");
    // Without a name search, the count is the sum of the per-workspace, per-state totals and the
    // deltas not folded into them yet (fold-contract-counts.ts): a few rows, where count(*) read an
    // index entry for every contract in scope. The other filters still count rows.
    const count = either((scoped) =>
      byWorkspaceAndStateOnly
        ? `(SELECT COALESCE(sum(c.n), 0)::bigint FROM (SELECT workspace_id, state, n FROM contract_counts
             UNION ALL SELECT workspace_id, state, n FROM contract_count_deltas) c WHERE ${filter(scoped)})`
        : `(SELECT count(*) FROM contracts c WHERE ${filter(scoped)})`,
    );
    // Deferred: the page's ids first, then their rows: skipping 19,900 contracts is then a walk
    // along an index (an index-only scan where the visibility map allows), not 19,900 rows read and
    // dropped. Direct: near the start, the rows themselves, without the second look-up per row.
    const page = either((scoped) =>
      pageForm === "direct"
        ? `(SELECT json_agg(${item} ORDER BY ${order("c")})
            FROM (SELECT c.* FROM contracts c WHERE ${filter(scoped)} ORDER BY ${order("c")} LIMIT ${limit} OFFSET ${offset}) c)`
        : `(SELECT json_agg(${item} ORDER BY ${order("c")})
            FROM (SELECT c.id FROM contracts c WHERE ${filter(scoped)} ORDER BY ${order("c")} LIMIT ${limit} OFFSET ${offset}) k
            JOIN contracts c ON c.id = k.id)`,
    );
    // As bytes (lib/db/sql.ts utf8BytesEscaped): the text never becomes a JavaScript string.
    return listHeadSql(count, page);
  };
}
