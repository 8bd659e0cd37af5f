// The party answer (TParty), written by PostgreSQL: the one producer of that shape, alone (the
// party routes, with `_links`) or inside a contract (lib/api/json/contract.ts, without).
import type { Tx } from "@/lib/db";
import { ACTING_USER_ID, answerOf, AUTH_CTE, inScope, isoTimeSql, jsonRow, listHeadSql, SqlParams, textByPlaceholders, type TPreload } from "@/lib/db/sql";
import type { Actor } from "@/lib/domain/actor";
import { linkBase } from "@/lib/http/origin";
import type { TPagination } from "@/lib/schemas";
import { contractNotFound, partyNotFound } from "@/lib/services/not-found";
import { actingUserIdOf, participantJsonSql } from "@/lib/api/json/participant";

/**
 * The fields of the party row `p`, in the answer's order: with `_links` under `base` (an SQL text
 * expression: the origin without a trailing slash) when given.
 */
function partyFieldsSql(base?: string): Record<string, string> {
  const contract = base && `${base} || '/v1/contracts/' || p.contract_id`;
  return {
    id: "p.id",
    name: "p.name",
    country_code: "p.country_code",
    identification_number: "p.identification_number",
    my_party: "p.my_party",
    _private_ownerside: jsonRow({ created_time: isoTimeSql("p.created_at"), updated_time: isoTimeSql("p.updated_at") }),
    ...(base ? { _links: jsonRow({ self: jsonRow({ href: `${contract} || '/parties/' || p.id` }), contract: jsonRow({ href: contract! }) }) } : {}),
    type: "p.type",
  };
}

/** The party `p` without its people (TPartySummary, in contract list items). */
export const PARTY_SUMMARY_SQL = jsonRow(partyFieldsSql());

/**
 * The party `p` (TParty): a company lists its `participants` (in id order), an individual has its
 * one `participant`; `me` is the acting user's id (an SQL expression), whose participant is
 * `my_participant`.
 */
export function partyJsonSql(me: string = ACTING_USER_ID, base?: string): string {
  const participant = participantJsonSql("q", undefined, me);
  return `CASE WHEN p.type = 'company' THEN ${jsonRow({
    ...partyFieldsSql(base),
    participants: `COALESCE((SELECT json_agg(${participant} ORDER BY q.id) FROM participants q WHERE q.party_id = p.id), '[]')`,
  })} ELSE ${jsonRow({
    ...partyFieldsSql(base),
    participant: `(SELECT ${participant} FROM participants q WHERE q.party_id = p.id ORDER BY q.id LIMIT 1)`,
  })} END`;
}

/** The answer of party `id` for `actor` (a row just written), as JSON text. */
export async function partyAnswer(db: Tx, actor: Actor, origin: string, id: number): Promise<string> {
  const q = new SqlParams();
  const text = PARTY_ANSWER_SQL(q.p(linkBase(origin), "text"), q.p(actingUserIdOf(actor), "int"), q.p(id, "int"));
  return answerOf(db, text, q.values, `party ${id}`);
}

const PARTY_ANSWER_SQL = textByPlaceholders((base: string, me: string, id: string) => `SELECT ${partyJsonSql(me, base)}::text AS answer FROM parties p WHERE p.id = ${id}`);

/** GET …/parties/{id}: the answer, read with the credentials, or which of the path's two rows is missing (`preloadedParty`). */
export function partyPreload(contractId: number, partyId: number, origin: string): TPreload {
  return (q) => PARTY_PRELOAD_SQL(q.p(linkBase(origin), "text"), q.p(contractId, "int"), q.p(partyId, "int"));
}

const PARTY_PRELOAD_SQL = textByPlaceholders((base: string, contractId: string, partyId: string) => `(SELECT json_build_object(
      'found', (SELECT ${partyJsonSql(ACTING_USER_ID, base)}::text FROM parties p WHERE p.id = ${partyId} AND p.contract_id = c.id))
    FROM contracts c, ${AUTH_CTE.scope} WHERE c.id = ${contractId} AND ${inScope("c")})`);

/** The preloaded party's answer, or the 404 of the first row of the path that is missing. */
export function preloadedParty(preloaded: unknown, contractId: number, partyId: number): string {
  const row = preloaded as { found: string | null } | null | undefined;
  if (!row) throw contractNotFound(contractId);
  if (row.found === null) throw partyNotFound(contractId, partyId);
  return row.found;
}

/**
 * GET …/parties: the contract's parties (owner side first: in id order) as the start of the answer,
 * `{"count":…,"data":[…]`, if the caller may see the contract; else null (`preloadedParties`).
 */
export function partiesPreload(contractId: number, { limit, offset }: TPagination, origin: string): TPreload {
  return (q) => PARTIES_SQL(q.p(linkBase(origin), "text"), q.p(limit === "all" ? null : limit, "int"), q.p(offset, "int"), q.p(contractId, "int"));
}

const PARTIES_SQL = textByPlaceholders((base: string, limit: string, offset: string, contractId: string) => {
  const page = `(SELECT json_agg(${partyJsonSql(ACTING_USER_ID, base)} ORDER BY p.id)
        FROM (SELECT * FROM parties WHERE contract_id = c.id ORDER BY id LIMIT ${limit} OFFSET ${offset}) p)`;
  return `(SELECT ${listHeadSql("(SELECT count(*) FROM parties p WHERE p.contract_id = c.id)", page)}
    FROM contracts c, ${AUTH_CTE.scope} WHERE c.id = ${contractId} AND ${inScope("c")})`;
});

/** The preloaded page (for `paginatedPreloaded`), or the 404 of a contract the caller may not see. */
export function preloadedParties(preloaded: unknown, contractId: number): unknown {
  if (preloaded === null || preloaded === undefined) throw contractNotFound(contractId);
  return preloaded;
}
