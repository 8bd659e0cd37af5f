import type { Prisma } from "@/lib/generated/prisma/client";
import { rowColumnsOf, rowSelectOf } from "@/lib/schemas/field-table";
import { PARTY_FIELDS } from "@/lib/schemas/party";
import { PARTICIPANT_SELECT } from "@/lib/services/participants/participant-row";

/** The party columns every party answer is built from (lib/schemas/party.ts; the summary in contract lists is just these). */
export const PARTY_SUMMARY_SELECT = rowSelectOf(PARTY_FIELDS) satisfies Prisma.PartySelect;

/** The column of each `PARTY_SUMMARY_SELECT` field, for rows PostgreSQL assembles (lib/db/sql.ts `jsonColumns`). */
export const PARTY_SUMMARY_COLUMNS = rowColumnsOf(PARTY_FIELDS);

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
