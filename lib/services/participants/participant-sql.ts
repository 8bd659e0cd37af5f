// A participant answer written by PostgreSQL, exactly as `serializeParticipant`
// (lib/api/serializers/participant.ts) writes it for the caller. test/services/hot-reads.test.ts
// and test/services/update-participant.test.ts hold the two equal.
import { isoTimeSql, jsonRow } from "@/lib/db/sql";

/** SQL text expressions for a participant answer's `_links`: the origin without a trailing slash, the contract's and the party's ids. */
export interface TParticipantLinksSql {
  base: string;
  contractId: string;
  partyId: string;
}

/**
 * The participant row `alias` as `serializeParticipant` writes it, as a JSON value: the caller's own
 * participant is the one linked to the acting user (the `usr` CTE of the authentication's
 * statement: none for the anonymous admin); `_links` when `links` is given (the participant routes).
 */
export function participantJsonSql(alias: string, links?: TParticipantLinksSql): string {
  const a = (column: string) => `${alias}.${column}`;
  const href = (url: string) => jsonRow({ href: url });
  const contract = links && `${links.base} || '/v1/contracts/' || ${links.contractId}`;
  const party = links && `${contract} || '/parties/' || ${links.partyId}`;
  return jsonRow({
    id: a("id"),
    name: a("name"),
    title: a("title"),
    email: a("email"),
    phone_number: a("phone_number"),
    identification_number: a("identification_number"),
    delivery_channel: a("delivery_channel"),
    delivery_status: a("delivery_status"),
    sign_method: a("sign_method"),
    sign_state: a("sign_state"),
    sign_state_updated_time: isoTimeSql(a("sign_state_updated_at")),
    signatory: a("signatory"),
    two_step_authentication_method: a("two_step_authentication_method"),
    organizer: a("organizer"),
    my_participant: `COALESCE(${a("user_id")} = (SELECT id FROM usr), false)`,
    _permissions: jsonRow({ "contract:update": a("can_update_contract") }),
    _private_ownerside: jsonRow({
      created_time: isoTimeSql(a("created_at")),
      first_visited_time: isoTimeSql(a("first_visited_at")),
      last_visited_time: isoTimeSql(a("last_visited_at")),
      updated_time: isoTimeSql(a("updated_at")),
      visits: a("visits"),
    }),
    ...(links
      ? { _links: jsonRow({ contract: href(contract!), party: href(party!), self: href(`${party} || '/participants/' || ${a("id")}`) }) }
      : {}),
  });
}
