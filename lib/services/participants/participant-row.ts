import type { Prisma } from "@/lib/generated/prisma/client";
import { PARTICIPANT_FIELDS } from "@/lib/schemas/participant";
import { rowColumnsOf, rowSelectOf } from "@/lib/schemas/field-table";

/** The columns a participant answer and its rules read (all but the internal ones, lib/schemas/participant.ts). */
export const PARTICIPANT_SELECT = rowSelectOf(PARTICIPANT_FIELDS) satisfies Prisma.ParticipantSelect;

/** The column of each `PARTICIPANT_SELECT` field, for rows PostgreSQL assembles (`jsonColumns`). */
export const PARTICIPANT_COLUMNS = rowColumnsOf(PARTICIPANT_FIELDS);

/** A participant row as selected by `PARTICIPANT_SELECT`; a full `Participant` row fits too. */
export type TParticipantRow = Prisma.ParticipantGetPayload<{ select: typeof PARTICIPANT_SELECT }>;
