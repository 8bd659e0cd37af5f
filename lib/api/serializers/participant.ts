import type { Actor } from "@/lib/api/auth";
import { absoluteUrl } from "@/lib/api/origin";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TParticipant } from "@/lib/schemas";

import { isoTime, isoTimeOrNull } from "./time";

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

/** Spec 2.3. */
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

/**
 * The participant's ETag (GET and PUT answer it; PUT compares `If-Match` with it). Derived from the
 * `version` column, which every change increments, so it names the stored state. Strong, because
 * `If-Match` uses strong comparison; what varies per caller (`my_participant`) is not state.
 */
export function participantEtag(row: Pick<TParticipantRow, "id" | "version">): string {
  return `"p${row.id}-v${row.version}"`;
}
