import type { Prisma } from "@/lib/generated/prisma/client";
import { CONTRACT_FIELDS } from "@/lib/schemas/contract";
import { rowColumnsOf, rowSelectOf } from "@/lib/schemas/field-table";
import { PARTY_WITH_PARTICIPANTS_SELECT, type TPartyRow, type TPartySummaryRow } from "@/lib/services/parties/party-row";

/** The contract columns every contract answer and rule reads (all but the internal ones, lib/schemas/contract.ts). */
export const CONTRACT_SELECT = rowSelectOf(CONTRACT_FIELDS) satisfies Prisma.ContractSelect;

/** Parties (owner side first: it is created first) with their participants. */
export const CONTRACT_DETAIL_INCLUDE = {
  parties: { select: PARTY_WITH_PARTICIPANTS_SELECT, orderBy: { id: "asc" } },
} as const satisfies Prisma.ContractInclude;

export type TContractRow = Prisma.ContractGetPayload<{ select: typeof CONTRACT_SELECT }>;
export type TContractDetailRow = TContractRow & { parties: TPartyRow[] };
export type TContractListRow = TContractRow & { parties: TPartySummaryRow[] };

/** The column of each `CONTRACT_SELECT` field. */
export const CONTRACT_COLUMNS = rowColumnsOf(CONTRACT_FIELDS);
