import type { Actor } from "@/lib/domain/actor";
import { absoluteUrl } from "@/lib/http/origin";
import type { TParty, TPartySummary } from "@/lib/schemas";
import type { TPartyRow, TPartySummaryRow } from "@/lib/services/parties/party-row";

import { serializeParticipant } from "./participant";
import { isoTime, isoTimeOrNull } from "./time";

export interface TSerializePartyOptions {
  actor: Actor;
  /** Given on the party routes, which answer with `_links`; omitted inside a contract. */
  links?: { origin: string };
}

function partyFields(row: TPartySummaryRow, links: { origin: string } | undefined) {
  return {
    id: row.id,
    name: row.name,
    country_code: row.countryCode,
    identification_number: row.identificationNumber,
    my_party: row.myParty,
    _private_ownerside: { created_time: isoTime(row.createdAt), updated_time: isoTimeOrNull(row.updatedAt) },
    ...(links
      ? {
          _links: {
            self: { href: absoluteUrl(links.origin, `/v1/contracts/${row.contractId}/parties/${row.id}`) },
            contract: { href: absoluteUrl(links.origin, `/v1/contracts/${row.contractId}`) },
          },
        }
      : {}),
  };
}

/**
 * docs/api.md "The domain": a company lists its `participants`, an individual has exactly one `participant`. An
 * individual party's name and identification number are stored as its participant's (creation and
 * the participant update keep them in step), so they are answered as stored.
 */
export function serializeParty(row: TPartyRow, { actor, links }: TSerializePartyOptions): TParty {
  const fields = partyFields(row, links);
  const participants = row.participants.map((p) => serializeParticipant(p, { actor }));
  if (row.type === "company") return { ...fields, type: "company", participants } satisfies TParty;
  const participant = participants[0];
  // Creation guarantees one; a party without is broken data, not something a client caused.
  if (!participant) throw new Error(`individual party ${row.id} has no participant`);
  return { ...fields, type: "individual", participant } satisfies TParty;
}

/** A party without its people, as in contract list items. */
export function serializePartySummary(row: TPartySummaryRow): TPartySummary {
  return { ...partyFields(row, undefined), type: row.type } satisfies TPartySummary;
}
