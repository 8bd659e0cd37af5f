// The differential oracle's serializers: Prisma rows (test/oracle/reads.ts) → the /v1 JSON of
// docs/api.md, written plainly in TypeScript. The product answers these shapes from SQL
// (lib/api/json); test/services/hot-reads.test.ts holds the two equal.
import type { Actor } from "@/lib/domain/actor";
import { absoluteUrl } from "@/lib/http/links";
import type { ContractDataField, TemplateType } from "@/lib/generated/prisma/client";
import type { TContract, TContractListItem, TContractSearch, TDataField, TParticipant, TParty, TPartySummary, TTemplateType } from "@/lib/schemas";
import { isoTime, isoTimeOrNull } from "@/lib/api/serializers/time";
import type { TContractDetailRow, TContractListRow, TContractRow } from "@/lib/services/contracts/contract-row";
import type { TParticipantRow } from "@/lib/services/participants/participant-row";
import type { TPartyRow, TPartySummaryRow } from "@/lib/services/parties/party-row";

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
    sign_order: row.signOrder,
    delegated_to_id: row.delegatedToId,
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
      delivery_failed_time: isoTimeOrNull(row.deliveryFailedAt),
      delivery_failure: row.deliveryFailure,
      reminders_sent: row.remindersSent,
      last_reminded_time: isoTimeOrNull(row.lastRemindedAt),
      invited_time: isoTimeOrNull(row.invitedAt),
      delegated_time: isoTimeOrNull(row.delegatedAt),
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

export interface TSerializePartyOptions {
  actor: Actor;
  /** Given on the party routes, which answer with `_links`; omitted inside a contract. */
  links?: { origin: string };
}

function partyFields(row: TPartySummaryRow, links: { origin: string } | undefined) {
  return {
    id: row.id,
    name: row.name,
    country_code: row.countryCode,
    identification_number: row.identificationNumber,
    my_party: row.myParty,
    _private_ownerside: { created_time: isoTime(row.createdAt), updated_time: isoTimeOrNull(row.updatedAt) },
    ...(links
      ? {
          _links: {
            self: { href: absoluteUrl(links.origin, `/v1/contracts/${row.contractId}/parties/${row.id}`) },
            contract: { href: absoluteUrl(links.origin, `/v1/contracts/${row.contractId}`) },
          },
        }
      : {}),
  };
}

/**
 * docs/api.md "The domain": a company lists its `participants`, an individual has exactly one `participant`. An
 * individual party's name and identification number are stored as its participant's (creation and
 * the participant update keep them in step), so they are answered as stored.
 */
export function serializeParty(row: TPartyRow, { actor, links }: TSerializePartyOptions): TParty {
  const fields = partyFields(row, links);
  const participants = row.participants.map((p) => serializeParticipant(p, { actor }));
  if (row.type === "company") return { ...fields, type: "company", participants } satisfies TParty;
  const participant = participants[0];
  // Creation guarantees one; a party without is broken data, not something a client caused.
  if (!participant) throw new Error(`individual party ${row.id} has no participant`);
  return { ...fields, type: "individual", participant } satisfies TParty;
}

/** A party without its people, as in contract list items. */
export function serializePartySummary(row: TPartySummaryRow): TPartySummary {
  return { ...partyFields(row, undefined), type: row.type } satisfies TPartySummary;
}

/** A calendar date (stored as midnight UTC) as `YYYY-MM-DD`. */
const dateOrNull = (date: Date | null) => (date === null ? null : date.toISOString().slice(0, 10));

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
    signing_order: row.signingOrder,
    delegation_allowed: row.delegationAllowed,
    lifecycle_settings: {
      duration: row.durationType,
      start_date: dateOrNull(row.startDate),
      end_date: dateOrNull(row.endDate),
      initial_duration: row.initialDuration,
      renewal_period: row.renewalPeriod,
      notice_period: row.noticePeriod,
    },
    lifecycle_state: {
      signed_date: dateOrNull(row.signedOn),
      state: row.lifecycleState,
      sub_state: row.lifecycleSubState,
      period_start_date: dateOrNull(row.periodStartDate),
      period_end_date: dateOrNull(row.periodEndDate),
      end_date: dateOrNull(row.endsOn),
      notice_deadline: dateOrNull(row.noticeDeadline),
      renewals: row.renewals,
      renewed_time: isoTimeOrNull(row.renewedAt),
    },
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
export function serializeContractListItem(row: TContractListRow & { search?: TContractSearch }, { origin }: { origin: string }): TContractListItem {
  return {
    ...contractFields(row, origin),
    parties: row.parties.map(serializePartySummary),
    ...(row.search ? { _search: row.search } : {}),
  } satisfies TContractListItem;
}

/** docs/api.md "Resources". */
export function serializeDataField(row: ContractDataField, { origin }: { origin: string }): TDataField {
  const contract = `/v1/contracts/${row.contractId}`;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    placeholder: row.placeholder,
    value: row.value,
    _private_ownerside: { created_time: isoTime(row.createdAt), custom_id: row.customId, updated_time: isoTime(row.updatedAt) },
    _links: {
      contract: { href: absoluteUrl(origin, contract) },
      self: { href: absoluteUrl(origin, `${contract}/data_fields/${row.id}`) },
    },
  } satisfies TDataField;
}

/** docs/api.md "Resources". */
export function serializeTemplateType(row: TemplateType, { origin }: { origin: string }): TTemplateType {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    extension_type: row.extensionType,
    active: row.active,
    created_time: isoTime(row.createdAt),
    updated_time: isoTime(row.updatedAt),
    _links: { self: { href: absoluteUrl(origin, `/v1/template_types/${row.id}`) } },
  } satisfies TTemplateType;
}
