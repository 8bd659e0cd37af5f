import type { Prisma } from "@/lib/generated/prisma/client";
import { auditValuesOf } from "@/lib/schemas/field-table";
import { PARTY_FIELDS } from "@/lib/schemas/party";
import { participantAuditValues } from "@/lib/services/participants/participant-audit-values";
import type { TPartyRow } from "@/lib/services/parties/party-row";

/** A party's audited fields by their API names (lib/schemas/party.ts `audit`), with its participants', as audit events record them. */
export function partyAuditValues(row: TPartyRow): Prisma.InputJsonObject {
  return { ...auditValuesOf(PARTY_FIELDS, row), participants: row.participants.map(participantAuditValues) } as Prisma.InputJsonObject;
}
