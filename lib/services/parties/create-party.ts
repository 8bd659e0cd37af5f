import type { PrismaClient } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { DomainError, ROOT_PROBLEM_KEY, summarize } from "@/lib/domain/errors";
import { defaultParticipantOptions } from "@/lib/domain/options";
import { CONTRACT_LIMITS, type TCreatePartyRequest } from "@/lib/schemas";
import { writeAuditEvent } from "@/lib/services/audit/write-audit-event";
import { assertDraftWritable } from "@/lib/services/contracts/editing-rules";
import { lockVisibleContract } from "@/lib/services/contracts/lock-visible-contract";
import { touchContract } from "@/lib/services/contracts/touch-contract";
import { participantProblemsError, type TRuleProblem } from "@/lib/services/participants/build-participant-problems-error";
import { partyAuditValues } from "@/lib/services/parties/party-audit-values";
import { counterpartyData } from "@/lib/services/parties/counterparty-data";
import { PARTY_WITH_PARTICIPANTS_SELECT, type TPartyRow } from "@/lib/services/parties/party-row";
import { loadAvailableOptions } from "@/lib/services/templates/load-available-options";
import { now as clockNow } from "@/lib/clock";

export interface CreatePartyOptions {
  /** Writes run in one transaction of their own, so the client, not a transaction. */
  db: PrismaClient;
  actor: Actor;
  contractId: number;
  /** Already parsed by ZCreatePartyRequestSchema (the shape of one of the create request's `parties`). */
  request: TCreatePartyRequest;
  requestId?: string;
}

/**
 * docs/api.md "Adding and removing parties and participants": a counterparty added to a draft,
 * checked exactly as on creation. In one transaction: lock the contract, then 404 (not visible) →
 * 403 (viewer) → 409 `contract_not_draft` → 400 (the contract's limits, counting what it has, then
 * the participant rules under its template's options); write the party and its participants, the
 * audit event and the contract's `updated_time`.
 */
export async function createParty({ db, actor, contractId, request, requestId }: CreatePartyOptions): Promise<TPartyRow> {
  return db.$transaction(async (tx) => {
    const contract = await lockVisibleContract(tx, actor, contractId);
    assertDraftWritable(actor, contract, "parties can be added");

    const where = { party: { contractId, myParty: false } };
    const [counterparties, participants] = await Promise.all([
      tx.party.count({ where: { contractId, myParty: false } }),
      tx.participant.count({ where }),
    ]);
    const adding = request.type === "company" ? request.participants.length : 1;
    const limits: Record<string, string[]> = {};
    if (counterparties + 1 > CONTRACT_LIMITS.counterparties) {
      limits[ROOT_PROBLEM_KEY] = [`a contract can have at most ${CONTRACT_LIMITS.counterparties} counterparties; it has ${counterparties}`];
    }
    if (participants + adding > CONTRACT_LIMITS.participantsPerContract) {
      limits[request.type === "company" ? "participants" : "participant"] = [
        `the counterparties can have at most ${CONTRACT_LIMITS.participantsPerContract} participants in all; they have ${participants}`,
      ];
    }
    if (Object.keys(limits).length > 0) throw new DomainError("validation_failed", summarize(limits), { parameterProblems: limits });

    const available = await loadAvailableOptions(tx, contract.templateId);
    const problems: TRuleProblem[] = [];
    const { participants: people, ...party } = counterpartyData(request, "", available, defaultParticipantOptions(available), problems);
    const error = participantProblemsError(problems);
    if (error) throw error;

    const now = clockNow();
    const stamp = { createdAt: now, updatedAt: now };
    const created = await tx.party.create({
      data: { ...party, contractId, createdAt: now, participants: { createMany: { data: people.map((p) => ({ ...p, ...stamp })) } } },
      select: PARTY_WITH_PARTICIPANTS_SELECT,
    });
    await touchContract(tx, contractId, now);
    await writeAuditEvent({
      db: tx,
      actor,
      action: "party.create",
      entityType: "party",
      entityId: created.id,
      contractId,
      requestId,
      after: partyAuditValues(created),
    });
    return created;
  });
}
