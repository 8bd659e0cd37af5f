import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { participantEtag, PARTICIPANT_COLUMNS, PARTICIPANT_SELECT, type TParticipantRow } from "@/lib/services/participants/participant-row";
import type { PrismaClient, Tx } from "@/lib/db";
import { jsonColumns, reviveDates } from "@/lib/db/sql";
import type { TContractState } from "@/lib/domain/enums";
import { visibleWorkspaceIds } from "@/lib/domain/permissions";
import { contractNotFound } from "@/lib/services/contracts/contract-sql";
import { participantProblems } from "@/lib/domain/options";
import type { Participant, Prisma } from "@/lib/generated/prisma/client";
import type { TUpdateParticipantRequest } from "@/lib/schemas";
import { assertContractEditable } from "@/lib/services/contracts/find-visible-contract";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { availableOptionsFields, toAvailableOptions, type TAvailableOptionsRow } from "@/lib/services/templates/load-available-options";

import { participantProblemsError, prefixProblems, type TRuleProblem } from "./build-participant-problems-error";

export interface UpdateParticipantOptions {
  /** Writes run in one transaction of their own, so the client, not a transaction. */
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  partyId: number;
  participantId: number;
  /** The raw `If-Match` header, or null when the client sent none. */
  ifMatch: string | null;
  /** Already parsed by ZUpdateParticipantRequestSchema. */
  changes: TUpdateParticipantRequest;
  requestId?: string;
}

/** Each writable attribute (docs/api.md "Updating a participant") and the column it is stored in. */
const COLUMNS = {
  name: "name",
  title: "title",
  email: "email",
  phone_number: "phoneNumber",
  identification_number: "identificationNumber",
  delivery_channel: "deliveryChannel",
  sign_method: "signMethod",
  two_step_authentication_method: "twoStepMethod",
  signatory: "signatory",
} as const satisfies Record<Exclude<keyof TUpdateParticipantRequest, "_permissions">, keyof Participant>;

type TAttribute = keyof typeof COLUMNS;
type TParticipantChanges = Partial<Pick<Participant, (typeof COLUMNS)[TAttribute] | "canUpdateContract">>;

/**
 * docs/api.md "Updating a participant". Checks run in a fixed order, so a client learns one thing at a time and nothing it may
 * not know: contract visible (404) → participant of that party of that contract (404) → `If-Match`
 * current (412) → role may write (403) → contract editable (409) → the participant rules (400).
 *
 * Everything happens in one transaction that first locks the participant's row: concurrent updates
 * of one participant queue behind each other, and each applies its changes to the state the previous
 * one committed, so no change is lost and the rules are checked on what will really be stored.
 */
export async function updateParticipant(options: UpdateParticipantOptions): Promise<TParticipantRow> {
  const { db, actor, contractId, partyId, participantId, ifMatch, changes, requestId } = options;
  return db.$transaction(async (tx) => {
    const { contract, party, current, available } = await lockForUpdate(tx, actor, { contractId, partyId, participantId });

    const etag = participantEtag(current);
    if (ifMatch !== null && !ifMatchAllows(ifMatch, etag)) {
      throw new DomainError("stale_if_match", "The participant changed since the version named in If-Match; fetch it again.", {
        headers: { ETag: etag },
      });
    }
    assertContractEditable(actor, contract);
    // `{}` updates nothing (docs/api.md "Updating a participant"), whatever the rules would say about the stored state.
    if (Object.keys(changes).length === 0) return current;

    const { data, before, after } = changedFields(current, changes);
    const next = { ...current, ...data };
    const problems: TRuleProblem[] = [];
    if (party.myParty && "email" in data) {
      problems.push({
        path: "email",
        message: "is the e-mail of a user of the service and cannot be changed here",
        code: "owner_participant_email_immutable",
      });
    }
    const resolved = {
      delivery_channel: next.deliveryChannel,
      sign_method: next.signMethod,
      two_step_authentication_method: next.twoStepMethod,
      email: next.email,
      phone_number: next.phoneNumber,
      signatory: next.signatory,
      _permissions: { "contract:update": next.canUpdateContract },
    };
    // An option is checked when it is being chosen now. One chosen earlier stays valid when the
    // template changed since, or when the service set it (the organizer's e-mail delivery), so a
    // client can still fix the participant's other attributes.
    const relevant = participantProblems(available, resolved).filter(
      (problem) => problem.code !== "option_not_offered" || problem.path.some((key) => key in after),
    );
    problems.push(...prefixProblems("", relevant));
    const error = participantProblemsError(problems);
    if (error) throw error;

    // Only values the participant already has: nothing to update, so `updated_time`, the ETag and
    // the audit log stay as they are.
    if (Object.keys(data).length === 0) return current;

    const now = new Date();
    const updated = await tx.participant.update({
      where: { id: current.id },
      data: { ...data, version: { increment: 1 }, updatedAt: now },
      select: PARTICIPANT_SELECT,
    });
    // An individual party is its participant (docs/api.md): its name and number follow.
    const mirrored =
      party.type === "individual"
        ? { ...("name" in data ? { name: updated.name } : {}), ...("identificationNumber" in data ? { identificationNumber: updated.identificationNumber } : {}) }
        : {};
    await tx.party.update({ where: { id: party.id }, data: { ...mirrored, updatedAt: now } });
    await writeAuditEvent({
      db: tx,
      actor,
      action: "participant.update",
      entityType: "participant",
      entityId: current.id,
      contractId: contract.id,
      workspaceId: contract.workspaceId,
      requestId,
      before,
      after,
    });
    return updated;
  });
}

/**
 * The rows an update works on, in two statements: first the participant, locked (`FOR UPDATE`
 * answers the version the previous change committed), then its contract if visible, its party if
 * it is the contract's, and the options of the contract's template. 404s in the order
 * `updateParticipant` promises: contract, then party and participant.
 */
async function lockForUpdate(tx: Tx, actor: Actor, ids: { contractId: number; partyId: number; participantId: number }) {
  const [locked] = await tx.$queryRawUnsafe<{ participant: TParticipantRow }[]>(
    `SELECT ${jsonColumns("q", PARTICIPANT_COLUMNS)} AS participant FROM participants q WHERE q.id = $1 AND q.party_id = $2 FOR UPDATE`,
    ids.participantId,
    ids.partyId,
  );
  const workspaces = visibleWorkspaceIds(actor);
  const [found] = await tx.$queryRawUnsafe<{ contract: TLockedContract; party: TLockedParty | null; options: TAvailableOptionsRow }[]>(
    `SELECT json_build_object('id', c.id, 'state', c.state, 'workspaceId', c.workspace_id, 'templateId', c.template_id) AS contract,
            (SELECT json_build_object('id', p.id, 'type', p.type, 'myParty', p.my_party) FROM parties p WHERE p.id = $2 AND p.contract_id = c.id) AS party,
            ${jsonColumns("c", {}, availableOptionsFields("c.template_id"))} AS options
       FROM contracts c WHERE c.id = $1 AND ($3::int[] IS NULL OR c.workspace_id = ANY($3::int[]))`,
    ids.contractId,
    ids.partyId,
    workspaces,
  );
  if (!found) throw contractNotFound(ids.contractId);
  if (!found.party) throw new DomainError("resource_not_found", `Contract ${ids.contractId} has no party ${ids.partyId}.`);
  if (!locked) throw new DomainError("resource_not_found", `Party ${ids.partyId} has no participant ${ids.participantId}.`);
  return { contract: found.contract, party: found.party, current: reviveDates(locked.participant), available: toAvailableOptions(found.options) };
}

type TLockedContract = { id: number; state: TContractState; workspaceId: number; templateId: number };
type TLockedParty = { id: number; type: "company" | "individual"; myParty: boolean };

/**
 * The columns to write (only those whose value changes) and the changed attributes before and after,
 * by their API names, for the audit event. The same e-mail in another case is no change: e-mail
 * addresses are compared case-insensitively everywhere else too.
 */
function changedFields(current: TParticipantRow, changes: TUpdateParticipantRequest) {
  const data: TParticipantChanges = {};
  const before: Record<string, Prisma.InputJsonValue> = {};
  const after: Record<string, Prisma.InputJsonValue> = {};
  for (const attribute of Object.keys(COLUMNS) as TAttribute[]) {
    const value = changes[attribute];
    const column = COLUMNS[attribute];
    if (value === undefined || value === current[column]) continue;
    if (attribute === "email" && typeof value === "string" && value.toLowerCase() === current.email.toLowerCase()) continue;
    (data as Record<string, unknown>)[column] = value;
    before[attribute] = current[column];
    after[attribute] = value;
  }
  const canUpdate = changes._permissions?.["contract:update"];
  if (canUpdate !== undefined && canUpdate !== current.canUpdateContract) {
    data.canUpdateContract = canUpdate;
    before._permissions = { "contract:update": current.canUpdateContract };
    after._permissions = { "contract:update": canUpdate };
  }
  return { data, before, after };
}

/**
 * `If-Match` (RFC 9110 13.1.1): `*` or a list of entity tags, compared strongly, so a weak tag
 * (`W/"…"`) never matches. An empty or unparsable header matches nothing: a client that meant to
 * send a tag but sent garbage must not overwrite someone else's change.
 */
function ifMatchAllows(header: string, etag: string): boolean {
  const value = header.trim();
  if (value === "*") return true;
  return value.split(",").some((tag) => tag.trim() === etag);
}
