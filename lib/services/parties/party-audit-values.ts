import type { Prisma } from "@/lib/generated/prisma/client";
import { participantAuditValues } from "@/lib/services/participants/participant-audit-values";
import type { TPartyRow } from "@/lib/services/parties/party-row";

/** A party with its participants by their API names, as audit events record them. */
export function partyAuditValues(row: TPartyRow) {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    country_code: row.countryCode,
    identification_number: row.identificationNumber,
    my_party: row.myParty,
    participants: row.participants.map(participantAuditValues),
  } satisfies Prisma.InputJsonValue;
}
