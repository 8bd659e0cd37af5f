// The contracts list's filters as SQL, written once: the list (contract.ts) and the dashboard's
// counts (dashboard.ts) both use them, so a dashboard number is exactly the length of the list it links to.
import { ACTING_USER_ID, type SqlParams } from "@/lib/db/sql";
import type { TContractListQuery } from "@/lib/schemas";

export type TContractFilter = Pick<
  TContractListQuery,
  "workspace_id" | "state" | "q" | "updated_before" | "expires_before" | "state_updated_after" | "delivery_failed" | "awaiting_me"
>;

const ROW_FILTERS = ["q", "updated_before", "expires_before", "state_updated_after", "delivery_failed", "awaiting_me"] as const satisfies readonly (keyof TContractFilter)[];

/**
 * The conditions on the contract `c` (joined with AND; none: every contract), and whether only the
 * workspace and state are filtered, which the kept per-workspace, per-state totals can count. `me`
 * is the calling user's id as an SQL expression (the authentication's CTE by default).
 */
export function contractFilterSql(query: TContractFilter, p: SqlParams["p"], me: string = ACTING_USER_ID): { conditions: string[]; byWorkspaceAndStateOnly: boolean } {
  const conditions: string[] = [];
  if (query.workspace_id !== undefined) conditions.push(`c.workspace_id = ${p(query.workspace_id, "int")}`);
  if (query.state !== undefined) conditions.push(`c.state = ${p(query.state, "text")}::contract_state`);
  const byWorkspaceAndStateOnly = ROW_FILTERS.every((key) => query[key] === undefined);
  // LIKE's escape character is `\`: `%`, `_` and `\` in the text mean themselves.
  if (query.q !== undefined) conditions.push(`c.name ILIKE ${p(`%${query.q.replace(/[\\%_]/g, "\\$&")}%`, "text")}`);
  if (query.updated_before !== undefined) conditions.push(`c.updated_at < ${p(query.updated_before, "timestamptz")}`);
  if (query.expires_before !== undefined) conditions.push(`c.signing_period_expires_at < ${p(query.expires_before, "timestamptz")}`);
  if (query.state_updated_after !== undefined) conditions.push(`c.state_updated_at >= ${p(query.state_updated_after, "timestamptz")}`);
  // Both read the few participants that match from an index, then their contracts.
  if (query.delivery_failed === "true") {
    conditions.push(`c.id IN (SELECT fp.contract_id FROM participants fq JOIN parties fp ON fp.id = fq.party_id WHERE fq.delivery_failed_at IS NOT NULL)`);
  }
  if (query.awaiting_me === "true") {
    // Their turn has come (invited), they have not decided and have not handed it on.
    // The user's few participants by their index, each one's contract by the party's key (a join
    // here made the planner read every party: 20 ms at 100,000 contracts).
    conditions.push(`c.id IN (SELECT (SELECT mp.contract_id FROM parties mp WHERE mp.id = mq.party_id) FROM participants mq
                               WHERE mq.user_id = ${me} AND mq.signatory AND mq.sign_state = 'undecided'
                                 AND mq.delegated_at IS NULL AND mq.invited_at IS NOT NULL)`);
  }
  return { conditions, byWorkspaceAndStateOnly };
}
