// GET /v1/dashboard: how many contracts each of the dashboard's questions finds (lib/domain/dashboard.ts),
// read in the authentication's statement and limited to what the caller may see.
import { isoTimeSql, type TPreload } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { DASHBOARD_FAILURES_SHOWN, DASHBOARD_ITEMS_SHOWN, DASHBOARD_LIFECYCLE_TILES, DASHBOARD_TILES, dashboardQueries } from "@/lib/domain/dashboard";
import { ZContractListQuerySchema } from "@/lib/schemas/contract";
import { contractCountSql, contractFilterSql, contractWhereSql, inCallersFormSql } from "@/lib/api/json/contract-filter";
import { contractOrderSql } from "@/lib/api/json/contract";

/**
 * `{ as_of, counts: { tile: n } }` as one JSON object, each tile counted at `asOf` with the contracts
 * list's own filters (the tile's query parsed by the list's schema), each served by an index.
 */
export function dashboardPreload(asOf: Date): TPreload {
  const queries = dashboardQueries(asOf);
  const counts = DASHBOARD_TILES.map((tile) => {
    const query = ZContractListQuerySchema.parse(queries[tile]);
    // As in the list (the same count).
    return Prisma.sql`${Prisma.raw(`'${tile}'`)}, ${inCallersFormSql((scoped) => contractCountSql(query, scoped))}`;
  });
  // The lifecycle tiles name their list's first contracts, in the list's own order.
  const items = DASHBOARD_LIFECYCLE_TILES.map((tile) => {
    const query = ZContractListQuerySchema.parse(queries[tile]);
    const { conditions } = contractFilterSql(query);
    const order = contractOrderSql(query);
    const first = (scoped: boolean) => Prisma.sql`(SELECT COALESCE(json_agg(json_build_object('id', c.id, 'name', c.name, 'workspace_id', c.workspace_id,
        'end_date', to_char(c.ends_on, 'YYYY-MM-DD'), 'notice_deadline', to_char(c.notice_deadline, 'YYYY-MM-DD'),
        'renewed_time', ${Prisma.raw(isoTimeSql("c.renewed_at"))}) ORDER BY ${order}), '[]')
      FROM (SELECT * FROM contracts c WHERE ${contractWhereSql(conditions, scoped)} ORDER BY ${order} LIMIT ${Prisma.raw(String(DASHBOARD_ITEMS_SHOWN))}) c)`;
    return Prisma.sql`${Prisma.raw(`'${tile}'`)}, ${inCallersFormSql(first)}`;
  });
  return Prisma.sql`json_build_object('as_of', ${asOf.toISOString()}::text, 'counts', json_build_object(${Prisma.join(counts, ", ")}),
      'items', json_build_object(${Prisma.join(items, ", ")}),
      'delivery_failures', ${DELIVERY_FAILURES})`;
}

/** The failed deliveries themselves, newest first: who, which address, and the server's reason. */
const failures = (scoped: boolean) => Prisma.sql`(SELECT COALESCE(json_agg(f ORDER BY f.failed_time DESC, f.participant_id DESC), '[]') FROM (
    SELECT c.id AS contract_id, c.name AS contract_name, q.party_id, q.id AS participant_id, q.name, q.email,
           q.delivery_failure AS reason, ${Prisma.raw(isoTimeSql("q.delivery_failed_at"))} AS failed_time
      FROM participants q JOIN parties y ON y.id = q.party_id JOIN contracts c ON c.id = y.contract_id
     WHERE q.delivery_failed_at IS NOT NULL AND c.state = 'pending' AND ${contractWhereSql([], scoped)}
     ORDER BY q.delivery_failed_at DESC, q.id DESC LIMIT ${Prisma.raw(String(DASHBOARD_FAILURES_SHOWN))}) f)`;
const DELIVERY_FAILURES = inCallersFormSql(failures);
