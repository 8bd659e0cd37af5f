import type { Prisma } from "@/lib/generated/prisma/client";
import type { TParticipantRow } from "@/lib/services/participants/participant-row";

/** A participant's writable attributes (and id) by their API names, as audit events record them. */
export function participantAuditValues(row: TParticipantRow) {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    email: row.email,
    phone_number: row.phoneNumber,
    identification_number: row.identificationNumber,
    delivery_channel: row.deliveryChannel,
    sign_method: row.signMethod,
    two_step_authentication_method: row.twoStepMethod,
    signatory: row.signatory,
    organizer: row.organizer,
    _permissions: { "contract:update": row.canUpdateContract },
  } satisfies Prisma.InputJsonValue;
}
