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
  version: "version",
  createdAt: "created_at",
  updatedAt: "updated_at",
} as const satisfies Record<keyof typeof PARTICIPANT_SELECT, string>;

/** A participant row as selected by `PARTICIPANT_SELECT`; a full `Participant` row fits too. */
export type TParticipantRow = Prisma.ParticipantGetPayload<{ select: typeof PARTICIPANT_SELECT }>;
