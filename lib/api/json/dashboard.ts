// GET /v1/dashboard: how many contracts each of the dashboard's questions finds (lib/domain/dashboard.ts),
// read in the authentication's statement and limited to what the caller may see.
import { isoTimeSql, type TPreload } from "@/lib/db/sql";
import { DASHBOARD_FAILURES_SHOWN, DASHBOARD_TILES, dashboardQueries } from "@/lib/domain/dashboard";
import { ZContractListQuerySchema } from "@/lib/schemas/contract";
import { contractFilterSql } from "@/lib/api/json/contract-filter";

/**
 * `{ as_of, counts: { tile: n } }` as one JSON object, each tile counted at `asOf` with the contracts
 * list's own filters (the tile's query parsed by the list's schema), each served by an index.
 */
export function dashboardPreload(asOf: Date): TPreload {
  const queries = dashboardQueries(asOf);
  return ({ p }) => {
    const counts = DASHBOARD_TILES.map((tile) => {
      const { conditions } = contractFilterSql(ZContractListQuerySchema.parse(queries[tile]), p);
      // As in the list: the scoped and unscoped forms written apart, so each is planned on its own.
      const count = (scoped: boolean) => `(SELECT count(*) FROM contracts c WHERE ${[...conditions, ...(scoped ? ["c.workspace_id = ANY(scope.ws)"] : [])].join(" AND ")})`;
      return `'${tile}', CASE WHEN scope.all_ws THEN ${count(false)} ELSE ${count(true)} END`;
    });
    // The failed deliveries themselves, newest first: who, which address, and the server's reason.
    const failures = (scoped: boolean) => `(SELECT COALESCE(json_agg(f ORDER BY f.failed_time DESC, f.participant_id DESC), '[]') FROM (
        SELECT c.id AS contract_id, c.name AS contract_name, q.party_id, q.id AS participant_id, q.name, q.email,
               q.delivery_failure AS reason, ${isoTimeSql("q.delivery_failed_at")} AS failed_time
          FROM participants q JOIN parties y ON y.id = q.party_id JOIN contracts c ON c.id = y.contract_id
         WHERE q.delivery_failed_at IS NOT NULL AND c.state = 'pending'${scoped ? " AND c.workspace_id = ANY(scope.ws)" : ""}
         ORDER BY q.delivery_failed_at DESC, q.id DESC LIMIT ${DASHBOARD_FAILURES_SHOWN}) f)`;
    return `json_build_object('as_of', ${p(asOf.toISOString(), "text")}, 'counts', json_build_object(${counts.join(", ")}),
      'delivery_failures', CASE WHEN scope.all_ws THEN ${failures(false)} ELSE ${failures(true)} END)`;
  };
}
