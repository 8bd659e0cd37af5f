// The party answer (TParty), written by PostgreSQL: the one producer of that shape, alone (the
// party routes, with `_links`) or inside a contract (lib/api/json/contract.ts, without).
import type { Tx } from "@/lib/db";
import { answerOf } from "@/lib/db/query";
import { ACTING_USER_ID, ANSWER_ARG, answerArgs, AUTH_CTE, inScope, jsonRow, listHeadSql, listPreload, type TPreload } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Actor } from "@/lib/domain/actor";
import type { TPagination } from "@/lib/schemas";
import { contractNotFound, partyNotFound } from "@/lib/services/not-found";
import { PARTY_FIELDS } from "@/lib/schemas/party";
import { answerFieldsSql } from "@/lib/api/json/answer-sql";
import { actingUserIdOf, participantJsonSql } from "@/lib/api/json/participant";

/** The fields of the party row `p` (lib/schemas/party.ts), in the answer's order: with `_links` under `arg.base` (lib/db/sql.ts `ANSWER_ARG`) when `links`. */
function partyFieldsSql(links: boolean): Record<string, string> {
  const contract = `${ANSWER_ARG.base} || '/v1/contracts/' || p.contract_id`;
  return answerFieldsSql(PARTY_FIELDS, "p", {
    links: links ? jsonRow({ self: jsonRow({ href: `${contract} || '/parties/' || p.id` }), contract: jsonRow({ href: contract }) }) : undefined,
  });
}

/** The party `p` without its people (TPartySummary, in contract list items). */
export const PARTY_SUMMARY_JSON = jsonRow(partyFieldsSql(false));

/**
 * The party `p` (TParty): a company lists its `participants` (in id order), an individual has its
 * one `participant`; reads `arg.me` (whose participant is `my_participant`), and `arg.base` when `links`.
 */
function partyJsonSql(links: boolean): string {
  const participant = participantJsonSql("q");
  return `CASE WHEN p.type = 'company' THEN ${jsonRow({
    ...partyFieldsSql(links),
    participants: `COALESCE((SELECT json_agg(${participant} ORDER BY q.id) FROM participants q WHERE q.party_id = p.id), '[]')`,
  })} ELSE ${jsonRow({
    ...partyFieldsSql(links),
    participant: `(SELECT ${participant} FROM participants q WHERE q.party_id = p.id ORDER BY q.id LIMIT 1)`,
  })} END`;
}

/** The party `p` inside a contract (without `_links`). */
export const PARTY_JSON = partyJsonSql(false);
/** The party `p` with its `_links` (the party routes). */
const PARTY_LINKED = Prisma.raw(partyJsonSql(true));
const PARTY_TEXT = Prisma.sql`${PARTY_LINKED}::text`;
const IN_SCOPE_C = inScope("c");

/** The answer of party `id` for `actor` (a row just written), as JSON text. */
export async function partyAnswer(db: Tx, actor: Actor, origin: string, id: number): Promise<string> {
  const query = Prisma.sql`SELECT ${PARTY_TEXT} AS answer FROM parties p, ${answerArgs(origin, actingUserIdOf(actor))} WHERE p.id = ${id}::int`;
  return answerOf(db, query, `party ${id}`);
}

/** GET …/parties/{id}: the answer, read with the credentials, or which of the path's two rows is missing (`preloadedParty`). */
export function partyPreload(contractId: number, partyId: number, origin: string): TPreload {
  return Prisma.sql`(SELECT json_build_object(
      'found', (SELECT ${PARTY_TEXT} FROM parties p WHERE p.id = ${partyId}::int AND p.contract_id = c.id))
    FROM contracts c, ${AUTH_CTE.scope}, ${answerArgs(origin, ACTING_USER_ID)} WHERE c.id = ${contractId}::int AND ${IN_SCOPE_C})`;
}

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
  const page = Prisma.sql`(SELECT json_agg(${PARTY_LINKED} ORDER BY p.id)
        FROM (SELECT * FROM parties WHERE contract_id = c.id ORDER BY id LIMIT ${limit === "all" ? null : limit}::int OFFSET ${offset}::int) p)`;
  return listPreload(Prisma.sql`(SELECT ${listHeadSql(PARTIES_COUNT, page)}
    FROM contracts c, ${AUTH_CTE.scope}, ${answerArgs(origin, ACTING_USER_ID)} WHERE c.id = ${contractId}::int AND ${IN_SCOPE_C})`);
}

const PARTIES_COUNT = Prisma.sql`(SELECT count(*) FROM parties p WHERE p.contract_id = c.id)`;

/** The preloaded page (for `paginatedPreloaded`), or the 404 of a contract the caller may not see. */
export function preloadedParties(preloaded: unknown, contractId: number): unknown {
  if (preloaded === null || preloaded === undefined) throw contractNotFound(contractId);
  return preloaded;
}
