import type { Prisma } from "@/lib/generated/prisma/client";
import { PARTICIPANT_SELECT } from "@/lib/services/participants/participant-row";

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
