// The data field answer (TDataField), written by PostgreSQL: the one producer of that shape. The
// reads run in the authentication's statement (lib/db/sql.ts `TPreload`); the list is sent as
// UTF-8 bytes (lib/db/sql.ts `utf8BytesEscaped`).
import type { Tx } from "@/lib/db";
import { answerOf, AUTH_CTE, inScope, isoTimeSql, jsonRow, listHeadSql, SqlParams, textByPlaceholders, type TPreload } from "@/lib/db/sql";
import { linkBase } from "@/lib/http/origin";
import type { TDataFieldRef, TPagination } from "@/lib/schemas";
import { contractNotFound, dataFieldNotFound } from "@/lib/services/not-found";

/** The data field row `d` as a JSON value, with links under `base` (an SQL text expression: the origin without a trailing slash). */
function dataFieldJsonSql(base: string): string {
  const contract = `${base} || '/v1/contracts/' || d.contract_id`;
  return jsonRow({
    id: "d.id",
    name: "d.name",
    description: "d.description",
    placeholder: "d.placeholder",
    value: "d.value",
    _private_ownerside: jsonRow({ created_time: isoTimeSql("d.created_at"), custom_id: "d.custom_id", updated_time: isoTimeSql("d.updated_at") }),
    _links: jsonRow({ contract: jsonRow({ href: contract }), self: jsonRow({ href: `${contract} || '/data_fields/' || d.id` }) }),
  });
}

/**
 * GET …/data_fields: the contract's data fields (in id order) as the start of the answer,
 * `{"count":…,"data":[…]`, if the caller may see the contract; else null (`preloadedDataFields`).
 */
export function dataFieldsPreload(contractId: number, { limit, offset }: TPagination, linkBase: string): TPreload {
  return ({ p }) => DATA_FIELDS_SQL(p(linkBase, "text"), p(limit === "all" ? null : limit, "int"), p(offset, "int"), p(contractId, "int"));
}

const DATA_FIELDS_SQL = textByPlaceholders((linkBase: string, limit: string, offset: string, contractId: string) => {
  const page = `(SELECT json_agg(${dataFieldJsonSql(linkBase)} ORDER BY d.id)
        FROM (SELECT * FROM contract_data_fields WHERE contract_id = c.id ORDER BY id
              LIMIT ${limit} OFFSET ${offset}) d)`;
  return `(SELECT ${listHeadSql("(SELECT count(*) FROM contract_data_fields d WHERE d.contract_id = c.id)", page)}
    FROM contracts c, ${AUTH_CTE.scope} WHERE c.id = ${contractId} AND ${inScope("c")})`;
});

/** The preloaded page (for `paginatedPreloaded`), or the 404 of a contract the caller may not see. */
export function preloadedDataFields(preloaded: unknown, contractId: number): unknown {
  if (preloaded === null || preloaded === undefined) throw contractNotFound(contractId);
  return preloaded;
}

/**
 * GET …/data_fields/{id or c::custom_id}: the answer, read with the credentials (`preloadedDataField`).
 * A custom id that several of the contract's fields share names the first of them (lowest id).
 */
export function dataFieldPreload(contractId: number, ref: TDataFieldRef, origin: string): TPreload {
  return (q) =>
    "id" in ref
      ? DATA_FIELD_BY_ID_SQL(q.p(linkBase(origin), "text"), q.p(contractId, "int"), q.p(ref.id, "int"))
      : DATA_FIELD_BY_CUSTOM_ID_SQL(q.p(linkBase(origin), "text"), q.p(contractId, "int"), q.p(ref.customId, "text"));
}

const dataFieldPreloadSql = (where: (ref: string) => string) => (base: string, contractId: string, ref: string) => `(SELECT json_build_object(
      'found', (SELECT ${dataFieldJsonSql(base)}::text FROM contract_data_fields d WHERE d.contract_id = c.id AND ${where(ref)} ORDER BY d.id LIMIT 1))
    FROM contracts c, ${AUTH_CTE.scope} WHERE c.id = ${contractId} AND ${inScope("c")})`;
const DATA_FIELD_BY_ID_SQL = textByPlaceholders(dataFieldPreloadSql((id) => `d.id = ${id}`));
const DATA_FIELD_BY_CUSTOM_ID_SQL = textByPlaceholders(dataFieldPreloadSql((customId) => `d.custom_id = ${customId}`));

/** The preloaded data field's answer, or the 404 of the contract or of the field. */
export function preloadedDataField(preloaded: unknown, contractId: number, ref: TDataFieldRef): string {
  const row = preloaded as { found: string | null } | null | undefined;
  if (!row) throw contractNotFound(contractId);
  if (row.found === null) throw dataFieldNotFound(contractId, ref);
  return row.found;
}

/** The answer of data field `id` (a row just written), as JSON text. */
export async function dataFieldAnswer(db: Tx, origin: string, id: number): Promise<string> {
  const q = new SqlParams();
  const text = DATA_FIELD_ANSWER_SQL(q.p(linkBase(origin), "text"), q.p(id, "int"));
  return answerOf(db, text, q.values, `data field ${id}`);
}

const DATA_FIELD_ANSWER_SQL = textByPlaceholders((base: string, id: string) => `SELECT ${dataFieldJsonSql(base)}::text AS answer FROM contract_data_fields d WHERE d.id = ${id}`);
