import type { Actor } from "@/lib/domain/actor";
import { absoluteUrl } from "@/lib/http/origin";
import type { TParticipant } from "@/lib/schemas";
import type { TParticipantRow } from "@/lib/services/participants/participant-row";

import { isoTime, isoTimeOrNull } from "./time";

export interface TParticipantLinks {
  origin: string;
  contractId: number;
  partyId: number;
}

export interface TSerializeParticipantOptions {
  actor: Actor;
  /** Given on the participant routes (GET/PUT), which answer with `_links`; omitted inside parties. */
  links?: TParticipantLinks;
}

export function participantPath({ contractId, partyId }: Omit<TParticipantLinks, "origin">, participantId: number): string {
  return `/v1/contracts/${contractId}/parties/${partyId}/participants/${participantId}`;
}

/** docs/api.md "The domain". */
export function serializeParticipant(row: TParticipantRow, { actor, links }: TSerializeParticipantOptions): TParticipant {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    email: row.email,
    phone_number: row.phoneNumber,
    identification_number: row.identificationNumber,
    delivery_channel: row.deliveryChannel,
    delivery_status: row.deliveryStatus,
    sign_method: row.signMethod,
    sign_state: row.signState,
    sign_state_updated_time: isoTimeOrNull(row.signStateUpdatedAt),
    signatory: row.signatory,
    two_step_authentication_method: row.twoStepMethod,
    organizer: row.organizer,
    my_participant: actor.kind === "user" && row.userId === actor.userId,
    _permissions: { "contract:update": row.canUpdateContract },
    _private_ownerside: {
      created_time: isoTime(row.createdAt),
      first_visited_time: isoTimeOrNull(row.firstVisitedAt),
      last_visited_time: isoTimeOrNull(row.lastVisitedAt),
      updated_time: isoTime(row.updatedAt),
      visits: row.visits,
      two_step_locked_time: isoTimeOrNull(row.twoStepLockedAt),
    },
    ...(links
      ? {
          _links: {
            contract: { href: absoluteUrl(links.origin, `/v1/contracts/${links.contractId}`) },
            party: { href: absoluteUrl(links.origin, `/v1/contracts/${links.contractId}/parties/${links.partyId}`) },
            self: { href: absoluteUrl(links.origin, participantPath(links, row.id)) },
          },
        }
      : {}),
  } satisfies TParticipant;
}
