// The contracts list's filters as SQL, written once: the list (contract.ts) and the dashboard's
// counts (dashboard.ts) both use them, so a dashboard number is exactly the length of the list it links to.
import { ACTING_USER_ID, AUTH_CTE, type Sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TContractListQuery } from "@/lib/schemas";
import { searchConditionSql } from "@/lib/api/json/contract-search";

export type TContractFilter = Pick<
  TContractListQuery,
  | "workspace_id"
  | "state"
  | "q"
  | "updated_before"
  | "expires_before"
  | "state_updated_after"
  | "delivery_failed"
  | "awaiting_me"
  | "lifecycle_state"
  | "ends_after"
  | "ends_before"
  | "notice_deadline_after"
  | "notice_deadline_before"
  | "renewed_after"
>;

/** Every filter but the workspace and the state: with any of them set, the count reads rows. */
const ROW_FILTERS = [
  "q",
  "updated_before",
  "expires_before",
  "state_updated_after",
  "delivery_failed",
  "awaiting_me",
  "lifecycle_state",
  "ends_after",
  "ends_before",
  "notice_deadline_after",
  "notice_deadline_before",
  "renewed_after",
] as const satisfies readonly Exclude<keyof TContractFilter, "workspace_id" | "state">[];
// A filter added to TContractFilter but not to ROW_FILTERS stops compiling here: the kept totals count only by workspace and state.
type TAllRowFiltersListed = [Exclude<keyof TContractFilter, "workspace_id" | "state" | (typeof ROW_FILTERS)[number]>] extends [never] ? true : never;
const ALL_ROW_FILTERS_LISTED: TAllRowFiltersListed = true;
void ALL_ROW_FILTERS_LISTED;

/**
 * The conditions on the contract `c` (joined with AND; none: every contract), and whether only the
 * workspace and state are filtered, which the kept per-workspace, per-state totals can count. "Me"
 * is the calling user (the authentication's CTE).
 */
export function contractFilterSql(query: TContractFilter): { conditions: Sql[]; byWorkspaceAndStateOnly: boolean; keyed: Sql[]; dropped: Sql | null } {
  const conditions: Sql[] = [];
  if (query.workspace_id !== undefined) conditions.push(Prisma.sql`c.workspace_id = ${query.workspace_id}::int`);
  if (query.state !== undefined) conditions.push(Prisma.sql`c.state = ${query.state}::text::contract_state`);
  const keyed = [...conditions];
  const byWorkspaceAndStateOnly = ROW_FILTERS.every((key) => query[key] === undefined);
  // `updated_before` alone: every contract has an `updated_at`, so the contracts it keeps are the
  // kept totals less those it drops, the recently changed (few, by an index), not the old (most).
  const onlyUpdatedBefore = ROW_FILTERS.every((key) => (key === "updated_before") === (query[key] !== undefined));
  const dropped = onlyUpdatedBefore ? Prisma.sql`c.updated_at >= ${query.updated_before}::timestamptz` : null;
  // The search document of each contract (contract-search.ts), by its GIN indexes.
  if (query.q !== undefined) conditions.push(searchConditionSql(query.q));
  if (query.updated_before !== undefined) conditions.push(Prisma.sql`c.updated_at < ${query.updated_before}::timestamptz`);
  if (query.expires_before !== undefined) conditions.push(Prisma.sql`c.signing_period_expires_at < ${query.expires_before}::timestamptz`);
  if (query.state_updated_after !== undefined) conditions.push(Prisma.sql`c.state_updated_at >= ${query.state_updated_after}::timestamptz`);
  // Both read the few participants that match from an index, then their contracts.
  if (query.delivery_failed === "true") conditions.push(DELIVERY_FAILED);
  if (query.awaiting_me === "true") conditions.push(AWAITING_ME);
  // The lifecycle (set at signing and kept by the lifecycle job): a state includes its sub-states.
  const lifecycle = query.lifecycle_state;
  if (lifecycle === "canceled" || lifecycle === "terminated") conditions.push(Prisma.sql`c.lifecycle_sub_state = ${lifecycle}::text::lifecycle_sub_state`);
  else if (lifecycle !== undefined) conditions.push(Prisma.sql`c.lifecycle_state = ${lifecycle}::text::lifecycle_state`);
  // Dates: `_after` on or after, `_before` strictly before, so [after, before) ranges meet without overlap.
  if (query.ends_after !== undefined) conditions.push(Prisma.sql`c.ends_on >= ${query.ends_after}::date`);
  if (query.ends_before !== undefined) conditions.push(Prisma.sql`c.ends_on < ${query.ends_before}::date`);
  if (query.notice_deadline_after !== undefined) conditions.push(Prisma.sql`c.notice_deadline >= ${query.notice_deadline_after}::date`);
  if (query.notice_deadline_before !== undefined) conditions.push(Prisma.sql`c.notice_deadline < ${query.notice_deadline_before}::date`);
  if (query.renewed_after !== undefined) conditions.push(Prisma.sql`c.renewed_at >= ${query.renewed_after}::timestamptz`);
  return { conditions, byWorkspaceAndStateOnly, keyed, dropped };
}

/**
 * The kept totals, as rows `(workspace_id, state, n)` to sum: the folded totals and the deltas not
 * folded yet (fold-contract-counts.ts). Their sum by workspace and state is exact in any snapshot.
 */
export const KEPT_TOTALS = Prisma.sql`(SELECT workspace_id, state, n FROM contract_counts UNION ALL SELECT workspace_id, state, n FROM contract_count_deltas)`;

/**
 * The exact count of a filter's contracts, for the caller's workspaces when `scoped`: with only
 * the workspace and state filtered, the kept per-workspace, per-state totals and the deltas not
 * folded yet (fold-contract-counts.ts: a few rows); with only `updated_before` besides, those less
 * the contracts it drops; else the rows. One statement, one snapshot: exact in any case.
 */
export function contractCountSql(query: TContractFilter, scoped: boolean): Sql {
  const { conditions, byWorkspaceAndStateOnly, keyed, dropped } = contractFilterSql(query);
  const kept = Prisma.sql`(SELECT COALESCE(sum(c.n), 0)::bigint FROM ${KEPT_TOTALS} c WHERE ${contractWhereSql(keyed, scoped)})`;
  if (byWorkspaceAndStateOnly) return kept;
  if (dropped) return Prisma.sql`(${kept} - (SELECT count(*) FROM contracts c WHERE ${contractWhereSql([...keyed, dropped], scoped)}))`;
  return Prisma.sql`(SELECT count(*) FROM contracts c WHERE ${contractWhereSql(conditions, scoped)})`;
}

const DELIVERY_FAILED = Prisma.sql`c.id IN (SELECT fp.contract_id FROM participants fq JOIN parties fp ON fp.id = fq.party_id WHERE fq.delivery_failed_at IS NOT NULL)`;
// Their turn has come (invited), they have not decided and have not handed it on. The user's few
// participants by their index, each one's contract by the party's key (a join here made the planner
// read every party: 20 ms at 100,000 contracts).
const AWAITING_ME = Prisma.sql`c.id IN (SELECT (SELECT mp.contract_id FROM parties mp WHERE mp.id = mq.party_id) FROM participants mq
                               WHERE mq.user_id = ${ACTING_USER_ID} AND mq.signatory AND mq.sign_state = 'undecided'
                                 AND mq.delegated_at IS NULL AND mq.invited_at IS NOT NULL)`;

/**
 * `conditions` joined with AND (none: true), and with the caller's workspaces when `scoped`. A
 * value is read in both forms, one picked by `scope.all_ws` (`inCallersFormSql`; a list's page:
 * `inEachScopeSql`): a condition `all_ws OR workspace_id = ANY(ws)` would be checked row by row,
 * and its cost made the planner count 100,000 contracts with parallel workers on every request.
 */
export function contractWhereSql(conditions: readonly Sql[], scoped: boolean): Sql {
  const all = scoped ? [...conditions, IN_SCOPE_WORKSPACES] : conditions;
  return all.length === 0 ? Prisma.raw("true") : Prisma.join(all, " AND ");
}

/**
 * One value (a count, a few rows as JSON) read in the form of the caller's workspaces: `read(false)`
 * for a caller who sees them all, else `read(true)`. Each form is planned on its own, and only the
 * one picked runs.
 */
export const inCallersFormSql = (read: (scoped: boolean) => Sql): Sql =>
  Prisma.sql`CASE WHEN ${AUTH_CTE.scope}.all_ws THEN ${read(false)} ELSE ${read(true)} END`;

const IN_SCOPE_WORKSPACES = Prisma.sql`c.workspace_id = ANY(${AUTH_CTE.scope}.ws)`;
const IN_ONE_WORKSPACE = Prisma.sql`c.workspace_id = ${AUTH_CTE.scope}.ws[1]`;

/**
 * The rows `select(where)` reads, in each form of the caller's workspaces, gated by a condition on
 * `scope` that PostgreSQL checks once (a one-time filter), so that only one form reads rows: all
 * workspaces, or the caller's. One union, so that what reads the rows is planned once, not once per
 * form. `oneByKey`: a caller of one workspace gets a form of its own, by that workspace's key, where
 * the `(workspace_id, id)` index walks its rows in order (a deep page: offset 19,900 of 200,000 in
 * 7 ms, not 20 with `= ANY(…)`); a third form costs 0.3–1 ms of planning, so only deep pages have it.
 */
export function inEachScopeSql(conditions: readonly Sql[], select: (where: Sql) => Sql, { oneByKey }: { oneByKey: boolean }): Sql {
  const scope = AUTH_CTE.scope;
  const form = (gate: Sql, workspaces: Sql[]) => select(Prisma.join([gate, ...conditions, ...workspaces], " AND "));
  const all = form(Prisma.sql`${scope}.all_ws`, []);
  if (!oneByKey) return Prisma.sql`${all} UNION ALL ${form(Prisma.sql`NOT ${scope}.all_ws`, [IN_SCOPE_WORKSPACES])}`;
  return Prisma.sql`${all}
      UNION ALL ${form(Prisma.sql`NOT ${scope}.all_ws AND cardinality(${scope}.ws) = 1`, [IN_ONE_WORKSPACE])}
      UNION ALL ${form(Prisma.sql`NOT ${scope}.all_ws AND cardinality(${scope}.ws) <> 1`, [IN_SCOPE_WORKSPACES])}`;
}
