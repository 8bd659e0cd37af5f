// The targets of a participant update (its contract, party, participant and the template's options)
// as one JSON value: read by the update itself and, with the caller's credentials, by the route's preload.
import { inScope, jsonColumns, type Sql, type TPreload } from "@/lib/db/sql";
import type { TContractState } from "@/lib/domain/enums";
import { Prisma } from "@/lib/generated/prisma/client";
import { PARTICIPANT_COLUMNS, type TParticipantRow } from "@/lib/services/participants/participant-row";
import { availableOptionsFields } from "@/lib/services/templates/available-options-fields";
import type { TAvailableOptionsRow } from "@/lib/services/templates/available-options-row";

/** What an update reads: the contract (if visible), its party, the party's participant and the template's options. */
export interface TTargetsRow {
  contract: { id: number; state: TContractState; workspaceId: number; templateId: number };
  party: { id: number; type: "company" | "individual"; myParty: boolean } | null;
  participant: TParticipantRow | null;
  options: TAvailableOptionsRow;
}

export type TTargetIds = { contractId: number; partyId: number; participantId: number };

const PARTICIPANT_X_JSON = Prisma.raw(jsonColumns("x", PARTICIPANT_COLUMNS));
const TEMPLATE_OPTIONS_JSON = Prisma.raw(jsonColumns("c", {}, availableOptionsFields("c.template_id")));
const IN_SCOPE_C = inScope("c");

/**
 * The targets as one JSON value (null when the contract is not there or `scope` hides it). By
 * default `scope` is the request's credentials: the route's preload, read in the authentication's
 * statement (PUT …/participants/{id}).
 */
export function updateTargetsPreload(ids: TTargetIds, scope: Sql = IN_SCOPE_C): TPreload {
  return Prisma.sql`(SELECT json_build_object(
      'contract', json_build_object('id', c.id, 'state', c.state, 'workspaceId', c.workspace_id, 'templateId', c.template_id),
      'party', (SELECT json_build_object('id', p.id, 'type', p.type, 'myParty', p.my_party) FROM parties p WHERE p.id = ${ids.partyId}::int AND p.contract_id = c.id),
      'participant', (SELECT ${PARTICIPANT_X_JSON} FROM participants x JOIN parties p ON p.id = x.party_id
                       WHERE x.id = ${ids.participantId}::int AND x.party_id = ${ids.partyId}::int AND p.contract_id = c.id),
      'options', ${TEMPLATE_OPTIONS_JSON})
    FROM contracts c WHERE c.id = ${ids.contractId}::int AND ${scope})`;
}
