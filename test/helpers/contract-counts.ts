/**
 * The contracts list's kept count against the rows, in one statement (one snapshot, so it holds
 * while other writers run): per `workspace/state`, totals plus deltas not folded yet (`kept`, the
 * ones that sum to zero left out) and `count(*)` (`counted`), and how many deltas are left.
 */
export const KEPT_AND_COUNTED_SQL = `SELECT
  COALESCE((SELECT json_object_agg(k, n) FROM (SELECT workspace_id || '/' || state AS k, sum(n)::int AS n
     FROM (SELECT workspace_id, state, n FROM contract_counts UNION ALL SELECT workspace_id, state, n FROM contract_count_deltas) t
     GROUP BY 1 HAVING sum(n) <> 0) a), '{}') AS kept,
  COALESCE((SELECT json_object_agg(k, n) FROM (SELECT workspace_id || '/' || state AS k, count(*)::int AS n FROM contracts GROUP BY 1) b), '{}') AS counted,
  (SELECT count(*)::int FROM contract_count_deltas) AS deltas`;

export interface TKeptAndCounted {
  kept: Record<string, number>;
  counted: Record<string, number>;
  deltas: number;
}
