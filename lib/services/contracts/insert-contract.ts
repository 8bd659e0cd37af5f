// The rows of a new contract in two statements (docs/performance.md "One round trip"): the contract,
// its parties and its data fields in one, their participants in the next (they need the parties'
// ids). Rows go in as one JSON parameter per table, in order, so ids follow the order given: the
// owner-side party first, as a nested Prisma create would write them. Answers the contract as
// `CONTRACT_SELECT` + `CONTRACT_DETAIL_INCLUDE` read it.
import { reviveDates } from "@/lib/db/query";
import { jsonColumns } from "@/lib/db/sql";
import { type Contract, type ContractDataField, Prisma } from "@/lib/generated/prisma/client";
import { CONTRACT_FIELDS } from "@/lib/schemas/contract";
import { DATA_FIELD_FIELDS } from "@/lib/schemas/data-field";
import { rowColumnsOf, writableFieldsOf } from "@/lib/schemas/field-table";
import { PARTICIPANT_COLUMNS, type TParticipantRow } from "@/lib/services/participants/participant-row";
import { PARTICIPANT_DATA_FIELDS, type TParticipantData } from "@/lib/services/parties/participant-data";
import { PARTY_DATA_FIELDS, type TPartyData } from "@/lib/services/parties/counterparty-data";
import { PARTY_SUMMARY_COLUMNS, type TPartySummaryRow } from "@/lib/services/parties/party-row";
import type { TContractDetailRow, TContractRow } from "./contract-row";
import { CONTRACT_COLUMNS } from "./contract-row";

/** What a new contract's row is made of: what the request writes (lib/schemas/contract.ts `write`), and who made it. */
const CONTRACT_DATA_FIELDS = [...writableFieldsOf(CONTRACT_FIELDS), "createdById"] as const;

export interface TNewContract extends Pick<Contract, (typeof CONTRACT_DATA_FIELDS)[number]> {
  /** Its created, updated and state-updated time, and its rows'. */
  now: Date;
  /** In the order they get their ids: the owner's side first. */
  parties: TPartyData[];
  /** Copies of the template's data fields, with their values. */
  dataFields: Pick<ContractDataField, TDataFieldData>[];
}

export async function insertContract(tx: Prisma.TransactionClient, c: TNewContract): Promise<TContractDetailRow> {
  const parties = JSON.stringify(c.parties.map((p) => rowOfColumns(PARTY_DATA_FIELDS, PARTY_SUMMARY_COLUMNS, p)));
  const dataFields = JSON.stringify(c.dataFields.map((f) => rowOfColumns(DATA_FIELD_DATA_FIELDS, DATA_FIELD_COLUMNS, f)));
  const now = Prisma.sql`${c.now}::timestamptz`;
  const [first] = await tx.$queryRaw<{ contract: TContractRow; parties: TPartySummaryRow[] }[]>`WITH c AS (
        INSERT INTO contracts (${CONTRACT_INSERTED.columns}, state, created_at, updated_at, state_updated_at, body)
        SELECT ${CONTRACT_INSERTED.values}, 'draft', ${now}, ${now}, ${now}, (SELECT t.body FROM templates t WHERE t.id = v.template_id)
          FROM jsonb_populate_record(NULL::contracts, ${JSON.stringify(rowOfColumns(CONTRACT_DATA_FIELDS, CONTRACT_COLUMNS, c))}::jsonb) v
        RETURNING *
      ), p AS (
        INSERT INTO parties (contract_id, ${PARTY_INSERTED.columns}, created_at)
        SELECT c.id, ${PARTY_INSERTED.values}, ${now}
          FROM c, ROWS FROM (jsonb_populate_recordset(NULL::parties, ${parties}::jsonb)) WITH ORDINALITY v
         ORDER BY v.ordinality
        RETURNING *
      ), d AS (
        INSERT INTO contract_data_fields (contract_id, ${DATA_FIELD_INSERTED.columns}, created_at, updated_at)
        SELECT c.id, ${DATA_FIELD_INSERTED.values}, ${now}, ${now}
          FROM c, ROWS FROM (jsonb_populate_recordset(NULL::contract_data_fields, ${dataFields}::jsonb)) WITH ORDINALITY v
         ORDER BY v.ordinality
      )
      SELECT (SELECT ${CONTRACT_JSON} FROM c) AS contract,
             (SELECT json_agg(${PARTY_SUMMARY_JSON} ORDER BY p.id) FROM p) AS parties`;
  const contract = reviveDates(first!.contract);
  const partyRows = reviveDates(first!.parties);
  // Ids were given in the order of the rows sent.
  const people = c.parties.flatMap((party, index) => party.participants.map((p) => participantColumns(partyRows[index]!.id, p)));
  const [second] = people.length
    ? await tx.$queryRaw<{ participants: TParticipantRow[] }[]>`WITH q AS (
            INSERT INTO participants (${PARTICIPANT_INSERTED.columns}, created_at, updated_at)
            SELECT ${PARTICIPANT_INSERTED.values}, ${now}, ${now}
              FROM ROWS FROM (jsonb_populate_recordset(NULL::participants, ${JSON.stringify(people)}::jsonb)) WITH ORDINALITY v
             ORDER BY v.ordinality
            RETURNING *
          )
          SELECT json_agg(${PARTICIPANTS_JSON} ORDER BY q.id) AS participants FROM q`
    : [{ participants: [] }];
  const participants = reviveDates(second!.participants);
  return { ...contract, parties: partyRows.map((party) => ({ ...party, participants: participants.filter((p) => p.partyId === party.id) })) };
}

const CONTRACT_JSON = Prisma.raw(jsonColumns("c", CONTRACT_COLUMNS));
const PARTY_SUMMARY_JSON = Prisma.raw(jsonColumns("p", PARTY_SUMMARY_COLUMNS));
const PARTICIPANTS_JSON = Prisma.raw(jsonColumns("q", PARTICIPANT_COLUMNS));

/** The columns of `fields` as an INSERT lists them, and their values in the populated rows `v`. */
function inserted(columns: readonly string[]) {
  return { columns: Prisma.raw(columns.join(", ")), values: Prisma.raw(columns.map((column) => `v.${column}`).join(", ")) };
}

/** `data`'s `fields` as a row by column, for `jsonb_populate_record(set)` (the rest of the row's columns stay unset). */
function rowOfColumns<F extends string>(fields: readonly F[], columns: Readonly<Record<F, string>>, data: Readonly<Record<F, unknown>>): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [columns[field], data[field]]));
}

/** The contract and participant columns a new contract writes; the rest take their defaults. */
const CONTRACT_INSERTED = inserted(CONTRACT_DATA_FIELDS.map((field) => CONTRACT_COLUMNS[field]));
const PARTICIPANT_FIELDS_INSERTED = ["partyId", ...PARTICIPANT_DATA_FIELDS] as const;
const PARTICIPANT_INSERTED = inserted(PARTICIPANT_FIELDS_INSERTED.map((field) => PARTICIPANT_COLUMNS[field]));

/** The party columns a new contract writes (lib/services/parties/counterparty-data.ts); its contract and creation time come from the statement. */
const PARTY_INSERTED = inserted(PARTY_DATA_FIELDS.map((field) => PARTY_SUMMARY_COLUMNS[field]));

/** A new contract's data field: every column of lib/schemas/data-field.ts but those the statement sets (its id, contract and times). */
const DATA_FIELD_COLUMNS = rowColumnsOf(DATA_FIELD_FIELDS);
const SET_BY_STATEMENT = ["id", "contractId", "createdAt", "updatedAt"] as const;
type TDataFieldData = Exclude<keyof typeof DATA_FIELD_COLUMNS, (typeof SET_BY_STATEMENT)[number]>;
const DATA_FIELD_DATA_FIELDS = (Object.keys(DATA_FIELD_COLUMNS) as (keyof typeof DATA_FIELD_COLUMNS)[]).filter(
  (field): field is TDataFieldData => !(SET_BY_STATEMENT as readonly string[]).includes(field),
);
const DATA_FIELD_INSERTED = inserted(DATA_FIELD_DATA_FIELDS.map((field) => DATA_FIELD_COLUMNS[field]));

/** A participant as a row of `participants` (by column). */
const participantColumns = (partyId: number, p: TParticipantData) => rowOfColumns(PARTICIPANT_FIELDS_INSERTED, PARTICIPANT_COLUMNS, { ...p, partyId });
