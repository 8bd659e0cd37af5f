import type { Prisma } from "@/lib/generated/prisma/client";

/** The columns a participant answer is built from: an explicit allowlist (no row is sent as is). */
export const PARTICIPANT_SELECT = {
  id: true,
  partyId: true,
  userId: true,
  name: true,
  title: true,
  email: true,
  phoneNumber: true,
  identificationNumber: true,
  deliveryChannel: true,
  deliveryStatus: true,
  signMethod: true,
  signState: true,
  signStateUpdatedAt: true,
  signatory: true,
  twoStepMethod: true,
  organizer: true,
  canUpdateContract: true,
  visits: true,
  firstVisitedAt: true,
  lastVisitedAt: true,
  twoStepLockedAt: true,
  deliveryFailedAt: true,
  deliveryFailure: true,
  remindersSent: true,
  lastRemindedAt: true,
  version: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.ParticipantSelect;

/** The column of each `PARTICIPANT_SELECT` field, for rows PostgreSQL assembles (lib/db/sql.ts). */
export const PARTICIPANT_COLUMNS = {
  id: "id",
  partyId: "party_id",
  userId: "user_id",
  name: "name",
  title: "title",
  email: "email",
  phoneNumber: "phone_number",
  identificationNumber: "identification_number",
  deliveryChannel: "delivery_channel",
  deliveryStatus: "delivery_status",
  signMethod: "sign_method",
  signState: "sign_state",
  signStateUpdatedAt: "sign_state_updated_at",
  signatory: "signatory",
  twoStepMethod: "two_step_authentication_method",
  organizer: "organizer",
  canUpdateContract: "can_update_contract",
  visits: "visits",
  firstVisitedAt: "first_visited_at",
  lastVisitedAt: "last_visited_at",
  twoStepLockedAt: "two_step_locked_at",
  deliveryFailedAt: "delivery_failed_at",
  deliveryFailure: "delivery_failure",
  remindersSent: "reminders_sent",
  lastRemindedAt: "last_reminded_at",
  version: "version",
  createdAt: "created_at",
  updatedAt: "updated_at",
} as const satisfies Record<keyof typeof PARTICIPANT_SELECT, string>;

/** A participant row as selected by `PARTICIPANT_SELECT`; a full `Participant` row fits too. */
export type TParticipantRow = Prisma.ParticipantGetPayload<{ select: typeof PARTICIPANT_SELECT }>;

/**
 * The participant's ETag (GET and PUT answer it; PUT compares `If-Match` with it). Derived from the
 * `version` column, which every change increments, so it names the stored state. Strong, because
 * `If-Match` uses strong comparison; what varies per caller (`my_participant`) is not state.
 */
export function participantEtag(row: Pick<TParticipantRow, "id" | "version">): string {
  return `"p${row.id}-v${row.version}"`;
}

/** `participantEtag` of the row `alias`, as an SQL text expression. */
export function participantEtagSql(alias: string): string {
  return `'"p' || ${alias}.id || '-v' || ${alias}.version || '"'`;
}
