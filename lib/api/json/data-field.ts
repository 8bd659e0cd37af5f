// The data field answer (TDataField), written by PostgreSQL: the one producer of that shape. The
// reads run in the authentication's statement (lib/db/sql.ts `TPreload`); the list is sent as
// UTF-8 bytes (lib/db/sql.ts `utf8BytesEscaped`).
import type { Tx } from "@/lib/db";
import { answerOf } from "@/lib/db/query";
import { ANSWER_ARG, answerArgs, AUTH_CTE, inScope, jsonRow, listHeadSql, listPreload, type TPreload } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TDataFieldRef, TPagination } from "@/lib/schemas";
import { DATA_FIELD_FIELDS } from "@/lib/schemas/data-field";
import { answerFieldsSql } from "@/lib/api/json/answer-sql";
import { contractNotFound, dataFieldNotFound } from "@/lib/services/not-found";

/** The data field row `d` (lib/schemas/data-field.ts) as a JSON value, with links under `arg.base` (lib/db/sql.ts `ANSWER_ARG`). */
function dataFieldJsonSql(): string {
  const contract = `${ANSWER_ARG.base} || '/v1/contracts/' || d.contract_id`;
  return jsonRow(
    answerFieldsSql(DATA_FIELD_FIELDS, "d", {
      links: jsonRow({ contract: jsonRow({ href: contract }), self: jsonRow({ href: `${contract} || '/data_fields/' || d.id` }) }),
    }),
  );
}

const DATA_FIELD = Prisma.raw(dataFieldJsonSql());
const DATA_FIELD_TEXT = Prisma.sql`${DATA_FIELD}::text`;
const IN_SCOPE_C = inScope("c");

/**
 * GET …/data_fields: the contract's data fields (in id order) as the start of the answer,
 * `{"count":…,"data":[…]`, if the caller may see the contract; else null (`preloadedDataFields`).
 */
export function dataFieldsPreload(contractId: number, { limit, offset }: TPagination, origin: string): TPreload {
  const page = Prisma.sql`(SELECT json_agg(${DATA_FIELD} ORDER BY d.id)
        FROM (SELECT * FROM contract_data_fields WHERE contract_id = c.id ORDER BY id
              LIMIT ${limit === "all" ? null : limit}::int OFFSET ${offset}::int) d)`;
  return listPreload(Prisma.sql`(SELECT ${listHeadSql(DATA_FIELDS_COUNT, page)}
    FROM contracts c, ${AUTH_CTE.scope}, ${answerArgs(origin, null)} WHERE c.id = ${contractId}::int AND ${IN_SCOPE_C})`);
}

const DATA_FIELDS_COUNT = Prisma.sql`(SELECT count(*) FROM contract_data_fields d WHERE d.contract_id = c.id)`;

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
  const where = "id" in ref ? Prisma.sql`d.id = ${ref.id}::int` : Prisma.sql`d.custom_id = ${ref.customId}::text`;
  return Prisma.sql`(SELECT json_build_object(
      'found', (SELECT ${DATA_FIELD_TEXT} FROM contract_data_fields d WHERE d.contract_id = c.id AND ${where} ORDER BY d.id LIMIT 1))
    FROM contracts c, ${AUTH_CTE.scope}, ${answerArgs(origin, null)} WHERE c.id = ${contractId}::int AND ${IN_SCOPE_C})`;
}

/** The preloaded data field's answer, or the 404 of the contract or of the field. */
export function preloadedDataField(preloaded: unknown, contractId: number, ref: TDataFieldRef): string {
  const row = preloaded as { found: string | null } | null | undefined;
  if (!row) throw contractNotFound(contractId);
  if (row.found === null) throw dataFieldNotFound(contractId, ref);
  return row.found;
}

/** The answer of data field `id` (a row just written), as JSON text. */
export async function dataFieldAnswer(db: Tx, origin: string, id: number): Promise<string> {
  const query = Prisma.sql`SELECT ${DATA_FIELD_TEXT} AS answer FROM contract_data_fields d, ${answerArgs(origin, null)} WHERE d.id = ${id}::int`;
  return answerOf(db, query, `data field ${id}`);
}
