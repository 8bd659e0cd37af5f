import type { PrismaClient } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError, ROOT_PROBLEM_KEY, summarize } from "@/lib/domain/errors";
import { defaultParticipantOptions } from "@/lib/domain/options";
import type { TCreateParticipantRequest } from "@/lib/schemas";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { assertDraftWritable } from "@/lib/services/contracts/editing-rules";
import { findPartyOfContract } from "@/lib/services/parties/find-party-of-contract";
import { lockVisibleContract } from "@/lib/services/contracts/lock-visible-contract";
import { touchContract } from "@/lib/services/contracts/touch-contract";
import { participantProblemsError, type TRuleProblem } from "@/lib/services/participants/build-participant-problems-error";
import { participantAuditValues } from "@/lib/services/participants/participant-audit-values";
import { participantLimitProblems } from "@/lib/services/participants/participant-limit-problems";
import { PARTICIPANT_SELECT, type TParticipantRow } from "@/lib/services/participants/participant-row";
import { participantData } from "@/lib/services/parties/participant-data";
import { loadAvailableOptions } from "@/lib/services/templates/load-available-options";
import { now as clockNow } from "@/lib/clock";

export interface CreateParticipantOptions {
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  partyId: number;
  /** Already parsed by ZCreateParticipantRequestSchema (the create request's participant shape). */
  request: TCreateParticipantRequest;
  requestId?: string;
}

/**
 * docs/api.md "Adding and removing parties and participants": a participant added to a company
 * counterparty of a draft, checked exactly as on creation. In one transaction: lock the contract,
 * then 404 (contract, party) → 403 → 409 `contract_not_draft` → 409 `party_takes_no_participants`
 * (an individual or the owner-side party) → 400 (limits, counting what is there; the participant
 * rules); write it, touch the party and the contract, audit.
 */
export async function createParticipant({ db, actor, contractId, partyId, request, requestId }: CreateParticipantOptions): Promise<TParticipantRow> {
  return db.$transaction(async (tx) => {
    const contract = await lockVisibleContract(tx, actor, contractId);
    const party = await findPartyOfContract(tx, contractId, partyId);
    assertDraftWritable(actor, contract, "participants can be added");
    if (party.myParty || party.type !== "company") {
      const why = party.myParty
        ? "is the owner-side party, whose participants are users of the service"
        : "is an individual party, which is its one participant (add a party for another person)";
      throw new DomainError("party_takes_no_participants", `Party ${partyId} ${why}.`);
    }

    const limits = await participantLimitProblems(tx, { id: partyId, contractId, myParty: party.myParty });
    if (limits.length > 0) {
      const parameterProblems = { [ROOT_PROBLEM_KEY]: limits };
      throw new DomainError("validation_failed", summarize(parameterProblems), { parameterProblems });
    }

    const available = await loadAvailableOptions(tx, contract.templateId);
    const problems: TRuleProblem[] = [];
    const data = participantData(request, "", available, defaultParticipantOptions(available), problems);
    const error = participantProblemsError(problems);
    if (error) throw error;

    const now = clockNow();
    const created = await tx.participant.create({
      data: { ...data, partyId, createdAt: now, updatedAt: now },
      select: PARTICIPANT_SELECT,
    });
    await tx.party.update({ where: { id: partyId }, data: { updatedAt: now } });
    await touchContract(tx, contractId, now);
    await writeAuditEvent({
      db: tx,
      actor,
      action: "participant.create",
      entityType: "participant",
      entityId: created.id,
      contractId,
      requestId,
      after: { party_id: partyId, ...participantAuditValues(created) },
    });
    return created;
  });
}
