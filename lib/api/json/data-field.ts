// GET /v1/contracts/{id}/data_fields in the authentication's statement (lib/db/sql.ts `TPreload`):
// the page and count `listDataFields` reads, written by PostgreSQL as the answer's JSON, each item
// exactly as `serializeDataField` writes it, and sent as UTF-8 bytes (test/services/hot-reads.test.ts).
import { AUTH_CTE, inScope, isoTimeSql, jsonRow, listHeadSql, textByPlaceholders, type TPreload } from "@/lib/db/sql";
import type { TPagination } from "@/lib/schemas";
import { contractNotFound } from "@/lib/services/contracts/contract-not-found";

/**
 * The contract's data fields (in id order) as the start of the answer, `{"count":…,"data":[…]`,
 * with links under `linkBase` (the origin without a trailing slash), if the caller may see the
 * contract; else null.
 */
export function dataFieldsPreload(contractId: number, { limit, offset }: TPagination, linkBase: string): TPreload {
  return ({ p }) => DATA_FIELDS_SQL(p(linkBase, "text"), p(limit === "all" ? null : limit, "int"), p(offset, "int"), p(contractId, "int"));
}

const DATA_FIELDS_SQL = textByPlaceholders((linkBase: string, limit: string, offset: string, contractId: string) => {
  const contract = `${linkBase} || '/v1/contracts/' || c.id`;
  const item = jsonRow({
    id: "d.id",
    name: "d.name",
    description: "d.description",
    placeholder: "d.placeholder",
    value: "d.value",
    _private_ownerside: jsonRow({ created_time: isoTimeSql("d.created_at"), custom_id: "d.custom_id", updated_time: isoTimeSql("d.updated_at") }),
    _links: jsonRow({ contract: jsonRow({ href: contract }), self: jsonRow({ href: `${contract} || '/data_fields/' || d.id` }) }),
  });
  const page = `(SELECT json_agg(${item} ORDER BY d.id)
        FROM (SELECT * FROM contract_data_fields WHERE contract_id = c.id ORDER BY id
              LIMIT ${limit} OFFSET ${offset}) d)`;
  return `(SELECT ${listHeadSql("(SELECT count(*) FROM contract_data_fields d WHERE d.contract_id = c.id)", page)}
    FROM contracts c, ${AUTH_CTE.scope} WHERE c.id = ${contractId} AND ${inScope("c")})`;
});

/** The preloaded page (for `paginatedPreloaded`), or the 404 `listDataFields` answers. */
export function preloadedDataFields(preloaded: unknown, contractId: number): unknown {
  if (preloaded === null || preloaded === undefined) throw contractNotFound(contractId);
  return preloaded;
}
