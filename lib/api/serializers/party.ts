import type { Actor } from "@/lib/api/auth";
import { absoluteUrl } from "@/lib/api/origin";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TParty, TPartySummary } from "@/lib/schemas";

import { PARTICIPANT_SELECT, serializeParticipant } from "./participant";
import { isoTime, isoTimeOrNull } from "./time";

/** The party columns every party answer is built from (the summary in contract lists is just these). */
export const PARTY_SUMMARY_SELECT = {
  id: true,
  contractId: true,
  type: true,
  name: true,
  countryCode: true,
  identificationNumber: true,
  myParty: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.PartySelect;

/** A party with its people, in the order they were added. */
export const PARTY_WITH_PARTICIPANTS_SELECT = {
  ...PARTY_SUMMARY_SELECT,
  participants: { select: PARTICIPANT_SELECT, orderBy: { id: "asc" } },
} as const satisfies Prisma.PartySelect;

/** The same as an `include` (all party columns plus participants), for `findMany({ include })` callers. */
export const PARTY_WITH_PARTICIPANTS_INCLUDE = {
  participants: { select: PARTICIPANT_SELECT, orderBy: { id: "asc" } },
} as const satisfies Prisma.PartyInclude;

export type TPartySummaryRow = Prisma.PartyGetPayload<{ select: typeof PARTY_SUMMARY_SELECT }>;
export type TPartyRow = Prisma.PartyGetPayload<{ select: typeof PARTY_WITH_PARTICIPANTS_SELECT }>;

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
 * Spec 2.2: a company lists its `participants`, an individual has exactly one `participant`. An
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
