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

/** The column of each `PARTY_SUMMARY_SELECT` field, for rows PostgreSQL assembles (lib/db/index.ts `jsonColumns`). */
export const PARTY_SUMMARY_COLUMNS = {
  id: "id",
  contractId: "contract_id",
  type: "type",
  name: "name",
  countryCode: "country_code",
  identificationNumber: "identification_number",
  myParty: "my_party",
  createdAt: "created_at",
  updatedAt: "updated_at",
} as const satisfies Record<keyof typeof PARTY_SUMMARY_SELECT, string>;

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
