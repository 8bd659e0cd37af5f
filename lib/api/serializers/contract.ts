import type { Actor } from "@/lib/api/auth";
import { absoluteUrl } from "@/lib/api/origin";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TContract, TContractListItem } from "@/lib/schemas";

import { PARTY_WITH_PARTICIPANTS_SELECT, serializeParty, serializePartySummary, type TPartyRow, type TPartySummaryRow } from "./party";
import { isoTime } from "./time";

/** The contract columns every contract answer is built from. */
export const CONTRACT_SELECT = {
  id: true,
  name: true,
  state: true,
  workspaceId: true,
  templateId: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.ContractSelect;

/** Parties (owner side first: it is created first) with their participants. */
export const CONTRACT_DETAIL_INCLUDE = {
  parties: { select: PARTY_WITH_PARTICIPANTS_SELECT, orderBy: { id: "asc" } },
} as const satisfies Prisma.ContractInclude;

export type TContractRow = Prisma.ContractGetPayload<{ select: typeof CONTRACT_SELECT }>;
export type TContractDetailRow = TContractRow & { parties: TPartyRow[] };
export type TContractListRow = TContractRow & { parties: TPartySummaryRow[] };

export interface TSerializeContractOptions {
  actor: Actor;
  origin: string;
}

function contractFields(row: TContractRow, origin: string) {
  const self = `/v1/contracts/${row.id}`;
  return {
    id: row.id,
    name: row.name,
    state: row.state,
    workspace_id: row.workspaceId,
    template_id: row.templateId,
    created_time: isoTime(row.createdAt),
    updated_time: isoTime(row.updatedAt),
    _links: {
      self: { href: absoluteUrl(origin, self) },
      parties: { href: absoluteUrl(origin, `${self}/parties`) },
      data_fields: { href: absoluteUrl(origin, `${self}/data_fields`) },
    },
  };
}

/** A contract with its full parties (GET /v1/contracts/{id}, POST /v1/contracts/create). */
export function serializeContract(row: TContractDetailRow, { actor, origin }: TSerializeContractOptions): TContract {
  return {
    ...contractFields(row, origin),
    parties: row.parties.map((party) => serializeParty(party, { actor })),
  } satisfies TContract;
}

/** A contract in the list: parties as a summary, without their people. */
export function serializeContractListItem(row: TContractListRow, { origin }: { origin: string }): TContractListItem {
  return {
    ...contractFields(row, origin),
    parties: row.parties.map(serializePartySummary),
  } satisfies TContractListItem;
}
