import type { Prisma } from "@/lib/generated/prisma/client";
import { auditValuesOf } from "@/lib/schemas/field-table";
import { PARTICIPANT_FIELDS } from "@/lib/schemas/participant";
import type { TParticipantRow } from "@/lib/services/participants/participant-row";

/** A participant's audited fields by their API names (lib/schemas/participant.ts `audit`), as audit events record them. */
export function participantAuditValues(row: TParticipantRow): Prisma.InputJsonObject {
  return auditValuesOf(PARTICIPANT_FIELDS, row) as Prisma.InputJsonObject;
}
