import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { participantEtag, PARTICIPANT_SELECT, type TParticipantRow } from "@/lib/services/participants/participant-row";
import type { PrismaClient } from "@/lib/db";
import { participantProblems } from "@/lib/domain/options";
import type { Participant, Prisma } from "@/lib/generated/prisma/client";
import type { TUpdateParticipantRequest } from "@/lib/schemas";
import { assertContractEditable, findParticipantOfParty, findPartyOfContract, findVisibleContract } from "@/lib/services/contracts/find-visible-contract";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { loadAvailableOptions } from "@/lib/services/templates/load-available-options";

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
    // Locked before it is read; a row that is not there (or not this party's) is the 404 below.
    await tx.$queryRaw`SELECT id FROM participants WHERE id = ${participantId} AND party_id = ${partyId} FOR UPDATE`;
    const contract = await findVisibleContract(tx, actor, contractId);
    const party = await findPartyOfContract(tx, contract.id, partyId);
    const current = await findParticipantOfParty(tx, party.id, participantId);

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
    const available = await loadAvailableOptions(tx, contract.templateId);
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
      requestId,
      before,
      after,
    });
    return updated;
  });
}

/**
 * The columns to write (only those whose value changes) and the changed attributes before and after,
 * by their API names, for the audit event. The same e-mail in another case is no change: e-mail
 * addresses are compared case-insensitively everywhere else too.
 */
function changedFields(current: Participant, changes: TUpdateParticipantRequest) {
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
