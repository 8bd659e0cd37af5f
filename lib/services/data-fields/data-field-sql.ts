// GET /v1/contracts/{id}/data_fields in the authentication's statement (lib/db/sql.ts `TPreload`):
// the rows and count `listDataFields` reads, assembled by PostgreSQL (test/services/hot-reads.test.ts).
import { jsonColumns, reviveDates, type TPreload } from "@/lib/db/sql";
import type { ContractDataField } from "@/lib/generated/prisma/client";
import type { TPagination } from "@/lib/schemas";
import { contractNotFound, IN_SCOPE } from "@/lib/services/contracts/contract-sql";

/** The column of each `ContractDataField` field. */
const DATA_FIELD_COLUMNS = {
  id: "id",
  contractId: "contract_id",
  name: "name",
  description: "description",
  placeholder: "placeholder",
  value: "value",
  customId: "custom_id",
  createdAt: "created_at",
  updatedAt: "updated_at",
} as const satisfies Record<keyof ContractDataField, string>;

/** The page of the contract's data fields (in id order) and their count, if the caller may see the contract; else null. */
export function dataFieldsPreload(contractId: number, { limit, offset }: TPagination): TPreload {
  return ({ p }) => `(SELECT json_build_object(
        'count', (SELECT count(*) FROM contract_data_fields d WHERE d.contract_id = c.id),
        'rows', COALESCE((
          SELECT json_agg(${jsonColumns("d", DATA_FIELD_COLUMNS)} ORDER BY d.id)
            FROM (SELECT * FROM contract_data_fields WHERE contract_id = c.id ORDER BY id
                  LIMIT ${p(limit === "all" ? null : limit, "int")} OFFSET ${p(offset, "int")}) d
        ), '[]'))
      FROM contracts c, scope WHERE c.id = ${p(contractId, "int")} AND ${IN_SCOPE("c")})`;
}

/** The preloaded page, or the 404 `listDataFields` answers. */
export function preloadedDataFields(preloaded: unknown, contractId: number): { count: number; rows: ContractDataField[] } {
  if (preloaded === null || preloaded === undefined) throw contractNotFound(contractId);
  return reviveDates(preloaded as { count: number; rows: ContractDataField[] });
}
