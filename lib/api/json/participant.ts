// The participant answer (TParticipant), written by PostgreSQL: the one producer of that shape,
// alone or inside a contract (lib/api/json/contract.ts); and its entity tag (RFC 9110 8.8.3),
// derived from the row's `version`, which every change increments, so a tag names the stored state.
// Strong, because `If-Match` compares strongly; what varies per caller (`my_participant`) is not state.
import type { Tx } from "@/lib/db";
import { answerOf } from "@/lib/db/query";
import { ACTING_USER_ID, ANSWER_ARG, answerArgs, AUTH_CTE, inScope, jsonRow, type Sql, type TPreload } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { contractNotFound, participantNotFound, partyNotFound } from "@/lib/services/not-found";
import type { Actor } from "@/lib/domain/actor";
import { PARTICIPANT_FIELDS } from "@/lib/schemas/participant";
import { answerFieldsSql } from "@/lib/api/json/answer-sql";

/**
 * The participant row `alias` as a JSON value, reading `arg` (lib/db/sql.ts `ANSWER_ARG`): `arg.me`'s
 * participant is `my_participant`; with `_links` under `arg.base` when `links` (the participant
 * routes), for the participant of the party `alias.party_id` of the contract `c.id`.
 */
export function participantJsonSql(alias: string, links = false): string {
  const href = (url: string) => jsonRow({ href: url });
  const contract = `${ANSWER_ARG.base} || '/v1/contracts/' || c.id`;
  const party = `${contract} || '/parties/' || ${alias}.party_id`;
  return jsonRow(
    answerFieldsSql(PARTICIPANT_FIELDS, alias, {
      computed: { my_participant: `COALESCE(${alias}.user_id = ${ANSWER_ARG.me}, false)` },
      links: links ? jsonRow({ contract: href(contract), party: href(party), self: href(`${party} || '/participants/' || ${alias}.id`) }) : undefined,
    }),
  );
}

/** The user whose participant is `my_participant`, for a statement outside the authentication's: none for the anonymous admin. */
export const actingUserIdOf = (actor: Actor): number | null => (actor.kind === "user" ? actor.userId : null);

/** A participant `x` with its links, as JSON text (reads `c.id` and `arg`). */
const PARTICIPANT_TEXT = Prisma.raw(`${participantJsonSql("x", true)}::text`);

/**
 * The answer of the participant row `alias` of contract `contractId` for `actor`, as JSON text: for
 * a statement outside the authentication's.
 */
export function participantAnswerSql(actor: Actor, origin: string, contractId: number, alias: string): Sql {
  return Prisma.sql`(SELECT ${PARTICIPANT_TEXT}
      FROM (SELECT ${Prisma.raw(alias)}.*) x, (SELECT ${contractId}::int AS id) c, ${answerArgs(origin, actingUserIdOf(actor))})`;
}

/** The answer of participant `id` of contract `contractId` for `actor` (a row just read or written), as JSON text. */
export async function participantAnswer(db: Tx, actor: Actor, origin: string, contractId: number, id: number): Promise<string> {
  const answer = participantAnswerSql(actor, origin, contractId, "q");
  return answerOf(db, Prisma.sql`SELECT ${answer} AS answer FROM participants q WHERE q.id = ${id}::int`, `participant ${id}`);
}

type TParticipantIds = { contractId: number; partyId: number; participantId: number };

/**
 * GET …/participants/{id}: the answer and its version, read with the credentials, or which of the
 * path's three rows is missing (`preloadedParticipant`).
 */
export function participantPreload(ids: TParticipantIds, origin: string): TPreload {
  return Prisma.sql`(SELECT json_build_object(
      'party', EXISTS (SELECT 1 FROM parties p WHERE p.id = ${ids.partyId}::int AND p.contract_id = c.id),
      'found', (SELECT json_build_object('version', x.version, 'answer', ${PARTICIPANT_TEXT})
                  FROM participants x JOIN parties p ON p.id = x.party_id
                 WHERE x.id = ${ids.participantId}::int AND p.id = ${ids.partyId}::int AND p.contract_id = c.id))
    FROM contracts c, ${AUTH_CTE.scope}, ${answerArgs(origin, ACTING_USER_ID)} WHERE c.id = ${ids.contractId}::int AND ${IN_SCOPE_C})`;
}

const IN_SCOPE_C = inScope("c");

/** The preloaded participant's answer and ETag, or the 404 of the first row of the path that is missing. */
export function preloadedParticipant(preloaded: unknown, ids: TParticipantIds): { answer: string; etag: string } {
  const row = preloaded as { party: boolean; found: { version: number; answer: string } | null } | null | undefined;
  if (!row) throw contractNotFound(ids.contractId);
  if (!row.party) throw partyNotFound(ids.contractId, ids.partyId);
  if (!row.found) throw participantNotFound(ids.partyId, ids.participantId);
  return { answer: row.found.answer, etag: participantEtag({ id: ids.participantId, version: row.found.version }) };
}

/** The participant's ETag (GET, POST and PUT answer it; PUT compares `If-Match` with it). */
export function participantEtag(row: { id: number; version: number }): string {
  return `"p${row.id}-v${row.version}"`;
}
