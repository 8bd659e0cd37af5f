import type { Actor } from "@/lib/domain/actor";
import { absoluteUrl } from "@/lib/http/origin";
import type { TContract, TContractListItem } from "@/lib/schemas";
import type { TContractDetailRow, TContractListRow, TContractRow } from "@/lib/services/contracts/contract-row";

import { serializeParty, serializePartySummary } from "./party";
import { isoTime } from "./time";

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
    published_time: row.publishedAt ? isoTime(row.publishedAt) : null,
    state_updated_time: isoTime(row.stateUpdatedAt),
    signing_period_expiry_time: row.signingPeriodExpiresAt ? isoTime(row.signingPeriodExpiresAt) : null,
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
