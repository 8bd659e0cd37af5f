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
  version: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.ParticipantSelect;

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
