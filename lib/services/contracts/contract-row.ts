import type { Prisma } from "@/lib/generated/prisma/client";
import { PARTY_WITH_PARTICIPANTS_SELECT, type TPartyRow, type TPartySummaryRow } from "@/lib/services/parties/party-row";

/** The contract columns every contract answer is built from. */
export const CONTRACT_SELECT = {
  id: true,
  name: true,
  state: true,
  workspaceId: true,
  templateId: true,
  createdAt: true,
  updatedAt: true,
  publishedAt: true,
  stateUpdatedAt: true,
  signingPeriodExpiresAt: true,
  signingOrder: true,
  delegationAllowed: true,
} as const satisfies Prisma.ContractSelect;

/** Parties (owner side first: it is created first) with their participants. */
export const CONTRACT_DETAIL_INCLUDE = {
  parties: { select: PARTY_WITH_PARTICIPANTS_SELECT, orderBy: { id: "asc" } },
} as const satisfies Prisma.ContractInclude;

export type TContractRow = Prisma.ContractGetPayload<{ select: typeof CONTRACT_SELECT }>;
export type TContractDetailRow = TContractRow & { parties: TPartyRow[] };
export type TContractListRow = TContractRow & { parties: TPartySummaryRow[] };

/** The column of each `CONTRACT_SELECT` field. */
export const CONTRACT_COLUMNS = {
  id: "id",
  name: "name",
  state: "state",
  workspaceId: "workspace_id",
  templateId: "template_id",
  createdAt: "created_at",
  updatedAt: "updated_at",
  publishedAt: "published_at",
  stateUpdatedAt: "state_updated_at",
  signingPeriodExpiresAt: "signing_period_expires_at",
  signingOrder: "signing_order",
  delegationAllowed: "delegation_allowed",
} as const satisfies Record<keyof typeof CONTRACT_SELECT, string>;
