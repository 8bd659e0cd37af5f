// The differential oracle's reads: the answers' rows read with Prisma, one query shape per
// resource, with the visibility and 404 rules spelled out in Prisma's terms. The product answers
// from SQL (lib/api/json); test/services/hot-reads.test.ts holds both equal for every kind of caller.
import type { Actor } from "@/lib/domain/actor";
import type { Tx } from "@/lib/db";
import { workspaceScope } from "@/lib/domain/access";
import { DomainError } from "@/lib/domain/errors";
import type { ContractDataField, Participant, Prisma, TemplateType } from "@/lib/generated/prisma/client";
import type { TContractListQuery, TContractSearch, TContractSort, TDataFieldRef, TPagination } from "@/lib/schemas";
import { searchContracts } from "@/test/oracle/search";
import { findParticipantOfParty } from "@/lib/services/participants/find-participant-of-party";
import { findPartyOfContract } from "@/lib/services/parties/find-party-of-contract";
import { findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { findDataFieldOfContract } from "@/lib/services/data-fields/find-data-field-of-contract";
import { CONTRACT_DETAIL_INCLUDE, CONTRACT_SELECT, type TContractDetailRow, type TContractListRow } from "@/lib/services/contracts/contract-row";
import { PARTY_SUMMARY_SELECT, PARTY_WITH_PARTICIPANTS_INCLUDE, PARTY_WITH_PARTICIPANTS_SELECT, type TPartyRow, type TPartySummaryRow } from "@/lib/services/parties/party-row";
import { pageArgs } from "@/lib/services/page-args";
import { SEARCH_MATCH_LIMIT } from "@/lib/schemas/limits";

// get-contract
export interface GetContractOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
}

/** The contract with its parties and their participants, if the actor may see it (else 404). */
export async function getContract({ db, actor, contractId }: GetContractOptions): Promise<TContractDetailRow> {
  return findVisibleContract(db, actor, contractId, CONTRACT_DETAIL_INCLUDE);
}

// list-contracts
export interface ListContractsOptions {
  db: Tx;
  actor: Actor;
  query: TContractListQuery;
}

const SORT_COLUMNS = { id: "id", name: "name", created_time: "createdAt", updated_time: "updatedAt", end_date: "endsOn", notice_deadline: "noticeDeadline" } as const;
/** The dates a contract may lack: sorted with the contracts that lack them last, in either direction. */
const NULLABLE_SORTS: ReadonlySet<string> = new Set(["endsOn", "noticeDeadline"]);

/**
 * `sort` as an order with `id` as tie-breaker in the same direction, so a page boundary never
 * splits or repeats equal values and `-x` is exactly the reverse of `x` (indexes `(x, id)` serve both).
 */
export function contractOrderBy(sort: TContractSort): Prisma.ContractOrderByWithRelationInput[] {
  const direction = sort.startsWith("-") ? "desc" : "asc";
  const column = SORT_COLUMNS[sort.replace(/^-/, "") as keyof typeof SORT_COLUMNS];
  if (column === "id") return [{ id: direction }];
  return [{ [column]: NULLABLE_SORTS.has(column) ? { sort: direction, nulls: "last" } : direction }, { id: direction }];
}

/** A `YYYY-MM-DD` query date as the Date Prisma compares a date column with. */
const day = (date: string) => new Date(`${date}T00:00:00Z`);

/** The lifecycle filters, in Prisma's terms: a state includes its sub-states; `_after` is on or after, `_before` strictly before. */
function lifecycleWhere(query: TContractListQuery): Prisma.ContractWhereInput[] {
  const state = query.lifecycle_state;
  return [
    state === undefined ? {} : state === "canceled" || state === "terminated" ? { lifecycleSubState: state } : { lifecycleState: state },
    query.ends_after === undefined ? {} : { endsOn: { gte: day(query.ends_after) } },
    query.ends_before === undefined ? {} : { endsOn: { lt: day(query.ends_before) } },
    query.notice_deadline_after === undefined ? {} : { noticeDeadline: { gte: day(query.notice_deadline_after) } },
    query.notice_deadline_before === undefined ? {} : { noticeDeadline: { lt: day(query.notice_deadline_before) } },
    query.renewed_after === undefined ? {} : { renewedAt: { gte: new Date(query.renewed_after) } },
  ];
}

/**
 * One page of the contracts the actor may see, with each contract's parties as a summary. Three
 * queries whatever the page size: the page, the count, and the page's parties.
 */
export async function listContracts({ db, actor, query }: ListContractsOptions): Promise<{ count: number; countExact?: boolean; rows: (TContractListRow & { search?: TContractSearch })[] }> {
  // The search in the oracle's own terms (test/oracle/search.ts): the matches among the contracts the actor may see.
  const found = query.q === undefined ? null : await searchContracts(db, (await db.contract.findMany({ where: workspaceScope(actor), select: { id: true } })).map((c) => c.id), query.q);
  const where: Prisma.ContractWhereInput = {
    AND: [
      workspaceScope(actor),
      query.workspace_id === undefined ? {} : { workspaceId: query.workspace_id },
      query.state === undefined ? {} : { state: query.state },
      found === null ? {} : { id: { in: [...found.keys()] } },
      query.updated_before === undefined ? {} : { updatedAt: { lt: new Date(query.updated_before) } },
      ...lifecycleWhere(query),
    ],
  };
  const sort = query.sort ?? "id";
  if (sort === "relevance") throw new Error("the oracle does not rank: give the search a sort");
  // A search holds the newest SEARCH_MATCH_LIMIT matches, and says whether there are more.
  const total = await db.contract.count({ where });
  const held: Prisma.ContractWhereInput =
    found === null ? where : { id: { in: (await db.contract.findMany({ where, select: { id: true }, orderBy: { id: "desc" }, take: SEARCH_MATCH_LIMIT })).map((c) => c.id) } };
  const contracts = await db.contract.findMany({ where: held, select: CONTRACT_SELECT, orderBy: contractOrderBy(sort), ...pageArgs(query) });
  const count = found === null ? total : Math.min(total, SEARCH_MATCH_LIMIT);
  const countExact = found === null ? {} : { countExact: total <= SEARCH_MATCH_LIMIT };
  if (contracts.length === 0) return { count, ...countExact, rows: [] };

  const parties = await db.party.findMany({
    where: { contractId: { in: contracts.map((c) => c.id) } },
    select: PARTY_SUMMARY_SELECT,
    orderBy: [{ contractId: "asc" }, { id: "asc" }],
  });
  const byContract = new Map<number, TPartySummaryRow[]>();
  for (const party of parties) {
    const list = byContract.get(party.contractId);
    if (list) list.push(party);
    else byContract.set(party.contractId, [party]);
  }
  return { count, ...countExact, rows: contracts.map((c) => ({ ...c, parties: byContract.get(c.id) ?? [], ...(found && query.matches === "true" ? { search: found.get(c.id)! } : {}) })) };
}

// get-party
export interface GetPartyOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
  partyId: number;
}

/** A party of a contract the actor may see, with its participants; 404 for anything else. */
export async function getParty({ db, actor, contractId, partyId }: GetPartyOptions): Promise<TPartyRow> {
  await findVisibleContract(db, actor, contractId);
  return findPartyOfContract(db, contractId, partyId, PARTY_WITH_PARTICIPANTS_INCLUDE);
}

// list-parties
export interface ListPartiesOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
  /** `limit` may be `all` here (a contract's child collection). */
  pagination: TPagination;
}

/** The parties of a contract the actor may see (else 404), owner side first, with their participants. */
export async function listParties({ db, actor, contractId, pagination }: ListPartiesOptions): Promise<{ count: number; rows: TPartyRow[] }> {
  await findVisibleContract(db, actor, contractId);
  const where = { contractId };
  const [count, rows] = await Promise.all([
    db.party.count({ where }),
    db.party.findMany({ where, select: PARTY_WITH_PARTICIPANTS_SELECT, orderBy: { id: "asc" }, ...pageArgs(pagination) }),
  ]);
  return { count, rows };
}

// get-participant
export interface GetParticipantOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
  partyId: number;
  participantId: number;
}

/** A participant of a party of a contract the actor may see; 404 unless the path names that chain. */
export async function getParticipant({ db, actor, contractId, partyId, participantId }: GetParticipantOptions): Promise<Participant> {
  await findVisibleContract(db, actor, contractId);
  await findPartyOfContract(db, contractId, partyId);
  return findParticipantOfParty(db, partyId, participantId);
}

// list-data-fields
export interface ListDataFieldsOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
  /** `limit` may be `all` here (docs/api.md "Pagination"). */
  pagination: TPagination;
}

/** The data fields of a contract the actor may see (else 404), in the template's order (they are copied in it). */
export async function listDataFields({ db, actor, contractId, pagination }: ListDataFieldsOptions): Promise<{ count: number; rows: ContractDataField[] }> {
  await findVisibleContract(db, actor, contractId);
  const where = { contractId };
  const [count, rows] = await Promise.all([
    db.contractDataField.count({ where }),
    db.contractDataField.findMany({ where, orderBy: { id: "asc" }, ...pageArgs(pagination) }),
  ]);
  return { count, rows };
}

// get-data-field
export interface GetDataFieldOptions {
  db: Tx;
  actor: Actor;
  contractId: number;
  /** By id, or by custom id (`c::{custom_id}` in the path). */
  dataField: TDataFieldRef;
}

/** A data field of a contract the actor may see; 404 when either is missing or it is another contract's. */
export async function getDataField({ db, actor, contractId, dataField }: GetDataFieldOptions): Promise<ContractDataField> {
  await findVisibleContract(db, actor, contractId);
  return findDataFieldOfContract(db, contractId, dataField);
}


// get-template-type
export interface GetTemplateTypeOptions {
  db: Tx;
  templateTypeId: number;
}

export async function getTemplateType({ db, templateTypeId }: GetTemplateTypeOptions): Promise<TemplateType> {
  const row = await db.templateType.findUnique({ where: { id: templateTypeId } });
  if (!row) throw new DomainError("resource_not_found", `Template type ${templateTypeId} does not exist.`);
  return row;
}

// list-template-types
export interface ListTemplateTypesOptions {
  db: Tx;
  pagination: TPagination;
}

/** Every template type: they name kinds of documents, not anything of a workspace, so all may read them. */
export async function listTemplateTypes({ db, pagination }: ListTemplateTypesOptions): Promise<{ count: number; rows: TemplateType[] }> {
  const [count, rows] = await Promise.all([
    db.templateType.count(),
    db.templateType.findMany({ orderBy: { id: "asc" }, ...pageArgs(pagination) }),
  ]);
  return { count, rows };
}
